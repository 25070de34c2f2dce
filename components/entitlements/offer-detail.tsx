"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { TOfferResponse } from "@/server/domain/entitlements/offers/offer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDate, formatDateTime, formatQuantity } from "../ui/format";
import { DEFAULT_CONSUMER_GRANT_LIMITS } from "@/server/domain/entitlements/offers/consumer-grant-limits";
import { StatusBadge } from "../pricing/status-badge";
import { FactGroup, plainValue, policyFacts } from "./fact-list";
import { OfferEditDialog } from "./offer-edit-dialog";
import { EntitlementCreateDialog } from "./entitlement-create-dialog";
import { AuditHistory } from "../audit/audit-history";
import { Tabs } from "../ui/tabs";

type Action = "publish" | "archive" | "delete" | "clone" | "edit" | "issue" | null;

/**
 * One offer: every field grouped as staff think of it, its lifecycle (edit while Draft, publish,
 * archive or delete, clone), issuing an entitlement from it, the entitlements made from it and its
 * history.
 */
export function OfferDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.entitlements.offer.queryOptions({ id }));
  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  if (!query.data) return <p className="muted">Loading…</p>;
  return <OfferScreen offer={query.data} />;
}

function OfferScreen({ offer }: { offer: TOfferResponse }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<Action>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
  const done = {
    onSuccess: async () => {
      await refresh();
      setAction(null);
    },
  };
  const publish = useMutation(trpc.entitlements.publishOffer.mutationOptions(done));
  const archive = useMutation(trpc.entitlements.deleteOffer.mutationOptions(done));
  const remove = useMutation(
    trpc.entitlements.deleteOffer.mutationOptions({
      onSuccess: async () => {
        await refresh();
        router.push("/admin/offers");
      },
    }),
  );
  const clone = useMutation(
    trpc.entitlements.cloneOffer.mutationOptions({
      onSuccess: async (copy) => {
        await refresh();
        setAction(null);
        router.push(`/admin/offers/${copy.id}`);
      },
    }),
  );
  const draft = offer.status === "Draft";
  const published = offer.status === "Published";
  const claims = offer.claimBasedActivation;

  function start(next: Action) {
    for (const m of [publish, archive, remove, clone]) m.reset();
    setAction(next);
  }

  return (
    <>
      <div className="crumbs">
        <Link href="/admin/offers">Offers</Link>
      </div>
      <div className="page-head head-row">
        <div>
          <h1>
            {offer.name} <StatusBadge status={offer.status} />
          </h1>
          <p className="muted">
            Version {offer.version}
            {offer.publishedAt ? ` · published ${formatDateTime(offer.publishedAt)}` : " · not published"} ·
            updated {formatDateTime(offer.updatedAt)}
          </p>
        </div>
        <div className="head-actions">
          {draft ? (
            <button type="button" className="btn" onClick={() => start("edit")}>
              Edit offer
            </button>
          ) : null}
          {draft ? (
            <button type="button" className="btn btn-primary" onClick={() => start("publish")}>
              Publish
            </button>
          ) : null}
          {published ? (
            <button type="button" className="btn btn-primary" onClick={() => start("issue")}>
              Issue an entitlement
            </button>
          ) : null}
          <button type="button" className="btn" onClick={() => start("clone")}>
            Clone
          </button>
          {published ? (
            <button type="button" className="btn btn-danger-ghost" onClick={() => start("archive")}>
              Archive
            </button>
          ) : null}
          {draft ? (
            <button type="button" className="btn btn-danger-ghost" onClick={() => start("delete")}>
              Delete
            </button>
          ) : null}
        </div>
      </div>
      {draft ? null : (
        <div className="banner" role="note">
          {published
            ? "Published: read-only here. Entitlements made from it are snapshots; clone it to make a changed version."
            : "Archived: no new entitlements can be made from it; entitlements made from it keep running."}
        </div>
      )}
      {offer.description ? <p>{offer.description}</p> : null}

      <Tabs
        label="Offer"
        tabs={[
          {
            id: "settings",
            label: "Settings",
            render: () => (
              <div className="fact-groups">
                <FactGroup
                  title="Products and plan"
                  facts={[
                    [
                      "Products",
                      offer.products.length ? (
                        offer.products.map((p, i) => (
                          <span key={p.id}>
                            {i ? ", " : ""}
                            <Link href={`/admin/products/${p.id}`}>
                              {p.name ?? p.productCode ?? "product"}
                            </Link>
                          </span>
                        ))
                      ) : (
                        <span className="muted">none</span>
                      ),
                    ],
                    [
                      "Plan",
                      offer.planSetId ? (
                        <Link href={`/admin/plan-sets/${offer.planSetId}`}>{offer.planName}</Link>
                      ) : (
                        <span className="muted">none</span>
                      ),
                    ],
                    ["Features", `${offer.features.length} (from the products)`],
                    ["Tags", plainValue(offer.tags)],
                  ]}
                />
                <FactGroup
                  title="Licensing model and seats"
                  facts={[
                    ["Seats", plainValue(claims.numberOfSeats)],
                    ["Model", claims.isFloatingLicense ? "Floating" : "Node-locked"],
                    ...policyFacts(claims).filter(([label]) => label !== "Number of seats"),
                  ]}
                />
                <FactGroup title="Activation policy" facts={policyFacts(offer.activationPolicy)} />
                <FactGroup title="Key issuance policy" facts={policyFacts(offer.keyIssuancePolicy)} />
                <FactGroup title="Billing" facts={policyFacts(offer.billingTemplate)} />
                <FactGroup
                  title="Validity, trial and anonymous try"
                  facts={[
                    [
                      "Validity",
                      offer.validityDays ? formatCountOf(offer.validityDays, "day") : "no fixed length",
                    ],
                    ["Not valid before", formatDate(offer.notValidBeforeDateTime)],
                    ["Expires", formatDate(offer.expirationDateTime)],
                    ["Trial", plainValue(offer.isEntitlementTrial)],
                    ["Anonymous try allowed", plainValue(offer.allowAnonymousTry)],
                  ]}
                />
                <FactGroup
                  title="Registration and consumers"
                  facts={[
                    ["Issue on user registration", plainValue(offer.issueOnUserRegistration)],
                    ["Consumers may grant credits", plainValue(offer.consumersMayGrantCredits)],
                    ...(offer.consumersMayGrantCredits
                      ? ([
                          [
                            "Most credits per grant",
                            formatQuantity(
                              offer.consumerGrantLimitPerGrant ?? DEFAULT_CONSUMER_GRANT_LIMITS.perGrant,
                            ),
                          ],
                          [
                            "Most credits per month",
                            formatQuantity(
                              offer.consumerGrantLimitPerMonth ?? DEFAULT_CONSUMER_GRANT_LIMITS.perMonth,
                            ),
                          ],
                        ] as [string, string][])
                      : []),
                    ["Platform offer", plainValue(offer.isPlatformOffer)],
                    ["Subscription status", offer.subscriptionStatus],
                    ["License terms", plainValue(offer.licenseTermsUrl)],
                    ["Contact", plainValue(offer.customerContactName ?? offer.customerContactEmail)],
                  ]}
                />
              </div>
            ),
          },
          {
            id: "entitlements",
            label: "Entitlements",
            render: () => <OfferEntitlements offerId={offer.id} />,
          },
          {
            id: "history",
            label: "History",
            render: () => <AuditHistory entityId={offer.id} />,
          },
        ]}
      />

      {action === "edit" ? <OfferEditDialog offer={offer} onClose={() => setAction(null)} /> : null}
      {action === "issue" ? (
        <EntitlementCreateDialog
          initialOfferId={offer.id}
          onClose={() => setAction(null)}
          onCreated={(e) => router.push(`/admin/entitlements/${e.id}`)}
        />
      ) : null}
      <ConfirmDialog
        open={action === "publish"}
        title={`Publish ${offer.name}?`}
        confirmLabel="Publish offer"
        busy={publish.isPending}
        problem={problemFrom(publish.error)}
        onConfirm={() => publish.mutate({ id: offer.id })}
        onCancel={() => setAction(null)}
      >
        <p>Entitlements can be made from it from now on. Its settings become read-only here.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action === "archive"}
        title={`Archive ${offer.name}?`}
        confirmLabel="Archive offer"
        danger
        busy={archive.isPending}
        problem={problemFrom(archive.error)}
        onConfirm={() => archive.mutate({ id: offer.id })}
        onCancel={() => setAction(null)}
      >
        <p>No new entitlements can be made from it. Entitlements already made from it keep running.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action === "delete"}
        title={`Delete ${offer.name}?`}
        confirmLabel="Delete offer"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onConfirm={() => remove.mutate({ id: offer.id })}
        onCancel={() => setAction(null)}
      >
        <p>The Draft offer is removed for good.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action === "clone"}
        title={`Clone ${offer.name}?`}
        confirmLabel="Clone offer"
        busy={clone.isPending}
        problem={problemFrom(clone.error)}
        onConfirm={() => clone.mutate({ id: offer.id })}
        onCancel={() => setAction(null)}
      >
        <p>
          A new Draft offer named “{offer.name} (copy)” with the same products, plan, policies and billing.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The entitlements made from an offer, newest first. */
function OfferEntitlements({ offerId }: { offerId: string }) {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.entitlements.list.queryOptions({ pageNumber: 1, pageSize: 50, filter: `sourceOfferId==${offerId}` }),
  );
  if (list.error) return <ProblemAlert problem={problemFrom(list.error)} />;
  if (!list.data) return <p className="muted">Loading…</p>;
  if (!list.data.items.length) return <p className="muted">No entitlements made from this offer yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table" aria-label="Entitlements made from this offer">
        <thead>
          <tr>
            <th scope="col">Entitlement</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((e) => (
            <tr key={e.id}>
              <td>
                <Link href={`/admin/entitlements/${e.id}`}>{e.name}</Link>
              </td>
              <td>
                <StatusBadge status={e.status} />
              </td>
              <td>{e.expirationDateTime ? formatDate(e.expirationDateTime) : "never"}</td>
              <td>{formatDateTime(e.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data.totalCount > list.data.items.length ? (
        <p className="muted">
          Showing {list.data.items.length} of {list.data.totalCount};{" "}
          <Link href={`/admin/entitlements?offerId=${offerId}`}>see them all</Link>.
        </p>
      ) : null}
    </div>
  );
}
