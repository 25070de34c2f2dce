"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import {
  ZAddOnUpdateRequest,
  type TAddOnResponse,
  type TAddOnUpdateRequest,
} from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Form, TextField, useSchemaForm } from "../ui/form";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { StatusBadge } from "./status-badge";
import { AddOnFeatureValues } from "./add-on-feature-values";
import { AddOnGrantedFeatures } from "./add-on-granted-features";
import { AddOnLifecycle } from "./add-on-lifecycle";
import { addOnPayload, addOnValues, type AddOnValues } from "./add-on-values";

/** One add-on: what it grants, how its values combine with the plan's, and its archive/delete with references shown first. */
export function AddOnDetail({ addOnId }: { addOnId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.addOns.get.queryOptions({ addOnId }));
  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  if (!query.data) return <p className="muted">Loading…</p>;
  return <AddOnScreen key={`${query.data.id}:${query.data.updatedAt}`} addOn={query.data} />;
}

function AddOnScreen({ addOn }: { addOn: TAddOnResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const featureCatalogIds = addOn.features.map((f) => f.featureCatalogId);
  const form = useSchemaForm<AddOnValues, TAddOnUpdateRequest>(ZAddOnUpdateRequest, {
    defaultValues: addOnValues(addOn),
    toPayload: (v) => addOnPayload(v, featureCatalogIds),
  });
  const features = useQuery(trpc.planSets.featureOptions.queryOptions({ term: "" }));
  const balances = useQuery(trpc.suites.balanceMetrics.queryOptions({ suiteId: addOn.suiteId }));
  const update = useMutation(
    trpc.addOns.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.addOns.pathKey() }),
      onError: form.showProblem,
    }),
  );
  const readOnly = addOn.status === "Archived";
  const refs = addOn.referencedBy ?? { entitlements: 0, offers: 0 };

  return (
    <div className="pricing">
      <div className="crumbs">
        <Link href="/admin/add-ons">Add-ons</Link> ·{" "}
        <Link href={`/admin/suites/${addOn.suiteId}`}>{addOn.suiteName}</Link>
      </div>
      <div className="page-head head-row">
        <div>
          <h1>
            {addOn.name} <StatusBadge status={addOn.status} />
          </h1>
          <p className="muted">
            <code>{addOn.code}</code> · add-on of {addOn.suiteName}
            {addOn.archivedAt ? ` · archived ${formatDateTime(addOn.archivedAt)}` : ""}
          </p>
        </div>
        <AddOnLifecycle addOn={addOn} />
      </div>
      <div className="banner" role="note" data-testid="add-on-references">
        <strong>Referenced by</strong> {formatCountOf(refs.entitlements, "entitlement")} and{" "}
        {formatCountOf(refs.offers, "offer")} holding a grant (revoked and expired grants included).
      </div>
      {readOnly ? (
        <div className="banner" role="note" data-testid="archived-banner">
          <strong>Archived.</strong> This add-on is read-only and cannot be deleted: existing grants stay, and
          so does their history.
        </div>
      ) : null}

      <Form
        form={form}
        id="add-on-edit"
        className=""
        label="Add-on"
        onSubmit={(edit) => {
          update.reset();
          update.mutate({ addOnId: addOn.id, edit });
        }}
      >
        <fieldset disabled={readOnly}>
          <div className="panel form">
            <div className="grid-3">
              <TextField name="name" label="Name" />
              <TextField name="code" label="Code" />
            </div>
            <TextField name="description" label="Description" multiline rows={2} />
          </div>
          <AddOnGrantedFeatures addOn={addOn} features={features.data} readOnly={readOnly} />
          <AddOnFeatureValues
            suiteId={addOn.suiteId}
            features={features.data}
            balanceMetrics={balances.data ?? []}
            problem={problemFrom(update.error)}
          />
          <div className="toolbar">
            <span className="toolbar-spacer" />
            <button type="submit" className="btn btn-primary" disabled={update.isPending}>
              {update.isPending ? "Saving…" : "Save"}
            </button>
          </div>
        </fieldset>
      </Form>
    </div>
  );
}
