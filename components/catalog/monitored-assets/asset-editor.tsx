"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { Path } from "react-hook-form";
import type { z } from "zod";
import {
  ZMonitoredAssetCreateRequest,
  ZMonitoredAssetUpdateRequest,
  type TMonitoredAssetCreateRequest,
  type TMonitoredAssetResponse,
  type TMonitoredAssetUpdateRequest,
} from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { validateUsageTiers } from "@/server/domain/catalog/monitored-assets/usage-tier.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Form, fieldIssueSentence, useSchemaForm } from "../../ui/form";
import { problemFrom } from "../../ui/problem";
import { AssetBalanceFields } from "./asset-balance-fields";
import { AssetMeteredFields } from "./asset-metered-fields";
import { AssetMetricFields } from "./asset-metric-fields";
import {
  assetValues,
  createPayload,
  updatePayload,
  usageKindOf,
  type AssetValues,
  type UsageKind,
} from "./asset-form-values";
import { tierCellLabels, tierRow, type TierRow } from "./tier-table-editor";

type Payload = TMonitoredAssetCreateRequest | TMonitoredAssetUpdateRequest;

const kindLabels: Record<UsageKind, string> = {
  None: "Tracked only",
  Metered: "Metered usage (tiers)",
  Balance: "Credit balance",
};

/**
 * Creates a product's monitored asset (`productId`) or edits one (`asset`): the metric, and either
 * metered usage (tier table, period) or a credit balance (credits, auto-balance, quota bands).
 * Checked with the API's own create or update schema, then with the tier ladder's rules.
 */
export function AssetEditor({ productId, asset }: { productId: string; asset?: TMonitoredAssetResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const currentKind = usageKindOf(asset);
  const form = useSchemaForm<AssetValues, Payload>(
    (asset ? ZMonitoredAssetUpdateRequest : ZMonitoredAssetCreateRequest) as z.ZodType<Payload>,
    {
      defaultValues: assetValues(asset),
      toPayload: (v) => (asset ? updatePayload(v, asset) : createPayload(v)),
    },
  );
  const kind = form.watch("kind");

  const balances = useQuery(
    trpc.products.monitoredAssets.queryOptions({
      id: productId,
      pageNumber: 1,
      pageSize: 100,
      filter: "usageKind==Balance",
    }),
  );
  const balanceMetrics = (balances.data?.items ?? [])
    .map((a) => a.metricName)
    .filter((m) => m !== asset?.metricName);

  const onSuccess = async (saved: TMonitoredAssetResponse) => {
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.monitoredAssets.pathKey() });
    if (!asset) router.push(`/admin/products/${productId}`);
    else form.setValue("meteredUsage.usageTiers", (saved.meteredUsage?.usageTiers ?? []).map(tierRow));
  };
  const create = useMutation(
    trpc.products.createMonitoredAsset.mutationOptions({ onSuccess, onError: form.showProblem }),
  );
  const update = useMutation(
    trpc.monitoredAssets.update.mutationOptions({ onSuccess, onError: form.showProblem }),
  );
  const mutation = asset ? update : create;

  /** The ladder rules one tier cannot check alone, filed at their cells; true when it holds. */
  function ladderHolds(payload: Payload): boolean {
    const tiers = payload.meteredUsage?.usageTiers;
    if (!tiers) return true;
    const issues = validateUsageTiers(tiers, {
      balanceMetricNames: balanceMetrics,
      path: "meteredUsage.usageTiers",
    });
    for (const issue of issues) {
      const [, , index, field] = issue.path.split(".");
      const label = `Tier ${Number(index) + 1} ${tierCellLabels[field as keyof TierRow] ?? field}`;
      form.setError(issue.path as Path<AssetValues>, {
        type: "custom",
        message: fieldIssueSentence(issue, "license.validation_error", label),
      });
    }
    return issues.length === 0;
  }

  function submit(payload: Payload) {
    create.reset();
    update.reset();
    if (!ladderHolds(payload)) return;
    if (asset) update.mutate({ id: asset.id, patch: payload as TMonitoredAssetUpdateRequest });
    else create.mutate({ id: productId, asset: payload as TMonitoredAssetCreateRequest });
  }

  return (
    <Form form={form} id="asset" onSubmit={submit} label="Monitored asset">
      {update.isSuccess && !update.isPending ? (
        <div className="alert alert-ok" role="status">
          Saved.
        </div>
      ) : null}
      <AssetMetricFields />

      <section className="panel">
        <div className="panel-head">
          <h2>Charging</h2>
        </div>
        <div className="usage-kind" role="radiogroup" aria-label="Charging">
          {(["None", "Metered", "Balance"] as const).map((k) => (
            <label key={k} className="checkbox">
              <input
                type="radio"
                value={k}
                disabled={currentKind === "Balance" && k !== "Balance"}
                {...form.register("kind")}
              />
              {kindLabels[k]}
            </label>
          ))}
        </div>
        {currentKind === "Balance" ? (
          <p className="muted small">To stop using the balance, delete it (below the form).</p>
        ) : null}
        {kind === "Metered" ? (
          <AssetMeteredFields balanceMetrics={balanceMetrics} problem={problemFrom(mutation.error)} />
        ) : null}
        {kind === "Balance" ? <AssetBalanceFields balance={asset?.balanceUsage ?? undefined} /> : null}
      </section>

      <div>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? "Saving…" : asset ? "Save monitored asset" : "Create monitored asset"}
        </button>
      </div>
    </Form>
  );
}
