import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { liveFeaturesByCode } from "../../catalog/pricing-lookups.ts";
import { readPlans } from "../../pricing/plan-sets/plan-set-store.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import type { Edge, SectionExporter } from "./section-exporter.ts";
import { fundingMetrics } from "./export-monitored-assets.ts";

/**
 * Edges from feature values and tiers to what they name by code: live catalog entries by feature
 * code, and the credit balances (of the suite's products) that tiers charge.
 */
export async function codeEdges(
  db: TenantDbOrTx,
  entries: {
    field: string;
    featureCode: string;
    usageTiers: readonly TUsageTier[];
    productIds: readonly string[];
  }[],
): Promise<Edge[][]> {
  const [byCode, balances] = await Promise.all([
    liveFeaturesByCode(
      db,
      entries.map((e) => e.featureCode),
    ),
    db.monitoredAsset.findMany({
      where: {
        ownerKind: "Product",
        productId: { in: [...new Set(entries.flatMap((e) => e.productIds))] },
        balanceUsages: { some: {} },
      },
      select: { id: true, productId: true, metricName: true },
    }),
  ]);
  return entries.map((e) => {
    const edges: Edge[] = [];
    const entry = byCode.get(e.featureCode.trim().toUpperCase());
    if (entry) edges.push({ field: e.field, kind: "FeatureCatalogEntry", id: entry.id });
    for (const metric of fundingMetrics(e.usageTiers)) {
      for (const b of balances.filter((b) => b.metricName === metric && e.productIds.includes(b.productId!)))
        edges.push({ field: `${e.field}.usageTiers.fundingBalanceMetric`, kind: "MonitoredAsset", id: b.id });
    }
    return edges;
  });
}

/** Plan-set revisions (the `plans` section), every status: the suite's timeline travels whole. */
export const planSetsExporter: SectionExporter<"plans"> = {
  async allIds(db) {
    const rows = await db.usagePlanSet.findMany({ select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.usagePlanSet.findMany({
      where: { id: { in: [...ids] } },
      include: { suite: { select: { members: { select: { productId: true } } } } },
    });
    const plans = await readPlans(
      db,
      rows.map((r) => r.id),
    );
    const result = new Map();
    for (const row of rows) {
      const rowPlans = plans.get(row.id) ?? [];
      const memberIds = row.suite.members.map((m) => m.productId);
      const values = rowPlans.flatMap((p) =>
        p.lineItems.flatMap((li) =>
          li.featureValues.map((fv) => ({
            field: "plans.lineItems.featureValues",
            featureCode: fv.featureCode,
            usageTiers: fv.usageTiers,
            productIds: memberIds,
          })),
        ),
      );
      const edges: Edge[] = [
        { field: "suiteId", kind: "Suite", id: row.suiteId },
        ...rowPlans.flatMap((p) =>
          p.lineItems.map((li) => ({
            field: "plans.lineItems.productId",
            kind: "Product" as const,
            id: li.productId,
          })),
        ),
        ...(await codeEdges(db, values)).flat(),
      ];
      result.set(row.id, {
        item: {
          id: row.id,
          suiteId: row.suiteId,
          name: row.name,
          description: row.description,
          status: row.status,
          revision: row.revision,
          plans: rowPlans.map((p) => ({
            name: p.name,
            description: p.description,
            sortOrder: p.sortOrder,
            pricingMode: p.pricingMode,
            monthlyPrice: p.monthlyPrice,
            currency: p.currency,
            relativeWeight: p.relativeWeight,
            lineItems: p.lineItems.map((li) => ({
              productId: li.productId,
              included: li.included,
              featureValues: li.featureValues.map((fv) => ({
                featureCode: fv.featureCode,
                metricName: fv.metricName,
                enforcementType: fv.enforcementType,
                value: fv.value,
                usageTiers: fv.usageTiers,
              })),
            })),
          })),
        },
        edges,
      });
    }
    return result;
  },
};
