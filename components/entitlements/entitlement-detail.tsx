"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { Tabs } from "../ui/tabs";
import { AuditHistory } from "../audit/audit-history";
import { EntitlementRenewDialog } from "./entitlement-renew-dialog";
import { EntitlementSessions } from "../licensing/entitlement-sessions";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { enumLabel, subscriptionStatusLabels } from "../ui/enum-labels";
import { StatusBadge } from "../pricing/status-badge";
import { EntitlementPlan } from "./entitlement-plan";
import { EntitlementGrants } from "./entitlement-grants";
import { BillingForm } from "./billing-form";
import { EntitlementCustomer } from "./entitlement-customer";
import { FeatureOverrides } from "./feature-overrides";
import { ActivationCodesPanel } from "../licensing/activation-codes-panel";
import { DevicesPanel } from "../licensing/devices-panel";
import { SeatUtilizationPanel } from "../licensing/seat-utilization-panel";
import { BalancePanel } from "../metering/balance-panel";
import { MetersPanel } from "../metering/meters-panel";

type Action = "renew" | null;

/**
 * The entitlement workspace: a header with its operational verbs (renew, activations on or off,
 * issue codes, reset devices) and tabs, each no longer than a screen or two.
 */
export function EntitlementDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const [action, setAction] = useState<Action>(null);
  const query = useQuery(trpc.entitlements.get.queryOptions({ id }));
  // The plan panel names the plan set from this list (the same query, so one request): until it
  // answers, the overview shows a placeholder rather than the plan set's id.
  const planSets = useQuery(
    trpc.planSets.list.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status==Published" }),
  );
  const toggle = useMutation(
    trpc.entitlements.setActivations.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  const e = query.data;
  if (!e) return <p className="muted">Loading…</p>;
  const openTab = (tab: string) => router.replace(`${pathname}?tab=${tab}`, { scroll: false });
  const renewable = e.status === "Published" && e.expirationDateTime !== null;
  return (
    <>
      <div className="crumbs">
        <Link href="/admin/entitlements">Entitlements</Link>
      </div>
      <div className="page-head head-row">
        <div>
          <h1>
            {e.name} <StatusBadge status={e.status} />
          </h1>
          <p className="muted" data-testid="entitlement-summary">
            {e.expirationDateTime ? `Ends ${formatDateTime(e.expirationDateTime)}` : "Never expires"}
            {e.isEntitlementTrial ? " · trial" : ""} · subscription{" "}
            {enumLabel(subscriptionStatusLabels, e.subscriptionStatus).toLowerCase()} · transfers{" "}
            {e.transferCount}
            {e.sourceOfferId ? (
              <>
                {" "}
                · made from <Link href={`/admin/offers/${e.sourceOfferId}`}>its offer</Link>
              </>
            ) : (
              " · direct"
            )}
          </p>
          <p className="muted">
            {e.activationsEnabled ? "New activations are allowed." : "New activations are refused."}
          </p>
        </div>
        <div className="head-actions">
          {renewable ? (
            <button type="button" className="btn btn-primary" onClick={() => setAction("renew")}>
              Renew
            </button>
          ) : null}
          {e.status === "Archived" ? null : (
            <button
              type="button"
              className="btn"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate({ id, enabled: !e.activationsEnabled })}
            >
              {e.activationsEnabled ? "Disable activations" : "Enable activations"}
            </button>
          )}
          <button type="button" className="btn" onClick={() => openTab("codes")}>
            Issue code
          </button>
          <button type="button" className="btn" onClick={() => openTab("seats")}>
            Reset devices
          </button>
          <button type="button" className="btn" onClick={() => openTab("overview")}>
            Change plan
          </button>
        </div>
      </div>
      <ProblemAlert problem={problemFrom(toggle.error)} onDismiss={() => toggle.reset()} />
      <Tabs
        label="Entitlement"
        tabs={[
          {
            id: "overview",
            label: "Overview",
            render: () =>
              planSets.isPending ? (
                <p className="muted">Loading…</p>
              ) : (
                <>
                  <EntitlementCustomer key={e.customerId ?? "none"} entitlement={e} />
                  <EntitlementPlan entitlement={e} />
                  <EffectiveFeatures entitlement={e} />
                  <EntitlementGrants entitlement={e} />
                </>
              ),
          },
          {
            id: "seats",
            label: "Seats and devices",
            render: () => (
              <>
                <SeatUtilizationPanel entitlementId={id} linkToSessions />
                <EntitlementSessions entitlementId={id} />
                <section className="detail-section" aria-labelledby="devices-heading">
                  <h2 id="devices-heading">Devices</h2>
                  <DevicesPanel entitlementId={id} />
                </section>
              </>
            ),
          },
          {
            id: "usage",
            label: "Usage and balances",
            render: () => (
              <>
                <section className="detail-section" aria-labelledby="meters-heading">
                  <h2 id="meters-heading">Meters</h2>
                  <MetersPanel entitlementId={id} />
                </section>
                <section className="detail-section" aria-labelledby="balances-heading">
                  <h2 id="balances-heading">Credit balances</h2>
                  <BalancePanel entitlementId={id} />
                </section>
              </>
            ),
          },
          {
            id: "codes",
            label: "Activation codes",
            render: () => <ActivationCodesPanel entitlementId={id} />,
          },
          { id: "billing", label: "Billing", render: () => <BillingForm entitlementId={id} /> },
          {
            id: "history",
            label: "History",
            render: () => <AuditHistory entityKind="entitlement" entityId={id} />,
          },
        ]}
      />
      {action === "renew" && e.expirationDateTime ? (
        <EntitlementRenewDialog
          entitlement={{ ...e, expirationDateTime: e.expirationDateTime }}
          onClose={() => setAction(null)}
        />
      ) : null}
    </>
  );
}

/** What the entitlement grants: product → plan → add-ons → overrides, with the overrides editable. */
function EffectiveFeatures({ entitlement: e }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const features = useQuery(trpc.entitlements.effectiveFeatures.queryOptions({ id: e.id }));
  return (
    <section className="panel" aria-labelledby="features-heading">
      <div className="panel-head">
        <h2 id="features-heading">Effective features</h2>
        <span className="muted">product → plan → add-ons → overrides</span>
      </div>
      <ProblemAlert problem={problemFrom(features.error)} />
      <FeatureOverrides key={e.revisionNumber} entitlement={e} />
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Effective features">
          <thead>
            <tr>
              <th scope="col">Feature</th>
              <th scope="col">Value</th>
              <th scope="col">Enabled</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {(features.data?.features ?? []).map((f) => (
              <tr key={f.featureCode}>
                <td>
                  <code>{f.featureCode}</code>{" "}
                  {f.featureName ? <span className="muted">{f.featureName}</span> : null}
                </td>
                <td>
                  {f.value ??
                    (f.usageTiers.length ? (
                      formatCountOf(f.usageTiers.length, "tier")
                    ) : (
                      <span className="muted">none</span>
                    ))}
                </td>
                <td>{f.isEnabled ? "yes" : "no"}</td>
                <td className="muted">{f.sources.join(" → ")}</td>
              </tr>
            ))}
            {features.data && !features.data.features.length ? (
              <tr>
                <td colSpan={4} className="muted">
                  No features yet.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </section>
  );
}
