import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { tagEdges, type Edge, type SectionExporter } from "./section-exporter.ts";
import { recordTagRefs } from "./record-tag-refs.ts";
import type { TPortableMonitoredAsset } from "../snapshot/snapshot-items.schemas.ts";

export const assetWithUsage = { meteredUsages: true, balanceUsages: true } as const;
type AssetRow = Prisma.MonitoredAssetGetPayload<{ include: typeof assetWithUsage }>;

const num = (v: { toNumber(): number } | null) => (v === null ? null : v.toNumber());
const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The portable part of a product's monitored asset: its metric, and the metered usage or the
 * balance template. A product's balance is a template (docs/api.md), so its credit counters are not
 * carried: a balance made from it starts with its initialCreditAmount.
 */
export function portableAsset(
  row: AssetRow,
  tags: readonly string[],
): Omit<TPortableMonitoredAsset, "id" | "productId"> {
  const metered = row.meteredUsages[0];
  const balance = row.balanceUsages[0];
  return {
    metricName: row.metricName,
    name: row.name,
    description: row.description,
    unit: row.unit,
    category: row.category,
    numberFormat: row.numberFormat,
    metricType: row.metricType,
    tags: [...tags],
    allowedBackDatingTolerance: row.allowedBackDatingTolerance,
    meteredUsage: metered
      ? {
          usageTiers: (Array.isArray(metered.usageTiers)
            ? metered.usageTiers
            : []) as unknown as TUsageTier[],
          consumptionPeriod: metered.consumptionPeriod,
          periodAnchor: metered.periodAnchor,
          accumulationMethod: metered.accumulationMethod,
          suspendedUntilAt: iso(metered.suspendedUntilAt),
        }
      : null,
    balanceUsage: balance
      ? {
          name: balance.name,
          description: balance.description,
          unit: balance.unit,
          numberFormat: balance.numberFormat,
          initialCreditAmount: balance.initialCreditAmount.toNumber(),
          isUnlimitedCredits: balance.isUnlimitedCredits,
          usageQuota: (Array.isArray(balance.usageQuota) ? balance.usageQuota : []) as {
            endUsage: number;
            name: string;
            quotaUsageLevel: string;
          }[],
          suspendedUntilAt: iso(balance.suspendedUntilAt),
          autoBalanceCronSchedule: balance.autoBalanceCronSchedule,
          shouldAutoBalanceTransferCurrentCredits: balance.shouldAutoBalanceTransferCurrentCredits,
          maxAutoBalanceCreditTransferAmount: num(balance.maxAutoBalanceCreditTransferAmount),
          autoBalanceCreditAmount: num(balance.autoBalanceCreditAmount),
        }
      : null,
  };
}

/** Metric names of credit balances a metered asset's tiers charge (fundingBalanceMetric). */
export const fundingMetrics = (tiers: readonly TUsageTier[]) => [
  ...new Set(tiers.map((t) => t.fundingBalanceMetric).filter((m): m is string => !!m)),
];

/** Ids of the products' own balance assets, by product and metric name. */
export async function balanceAssetIds(
  db: TenantDbOrTx,
  productIds: readonly string[],
): Promise<Map<string, string>> {
  if (!productIds.length) return new Map();
  const rows = await db.monitoredAsset.findMany({
    where: { ownerKind: "Product", productId: { in: [...new Set(productIds)] }, balanceUsages: { some: {} } },
    select: { id: true, productId: true, metricName: true },
  });
  return new Map(rows.map((r) => [`${r.productId}/${r.metricName}`, r.id]));
}

/** Monitored assets: the products' own metrics (copies held by offers travel with their offer). */
export const monitoredAssetsExporter: SectionExporter<"monitoredAssets"> = {
  async allIds(db) {
    const rows = await db.monitoredAsset.findMany({
      where: { ownerKind: "Product", product: { isDeleted: false } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.monitoredAsset.findMany({
      where: { id: { in: [...ids] }, ownerKind: "Product", product: { isDeleted: false } },
      include: assetWithUsage,
    });
    const [tags, balances] = await Promise.all([
      recordTagRefs(
        db,
        rows.map((r) => r.id),
      ),
      balanceAssetIds(
        db,
        rows.map((r) => r.productId!),
      ),
    ]);
    return new Map(
      rows.map((row) => {
        const rowTags = tags.get(row.id) ?? [];
        const portable = portableAsset(
          row,
          rowTags.map((t) => t.name),
        );
        const edges: Edge[] = [
          { field: "productId", kind: "Product", id: row.productId! },
          ...tagEdges(rowTags),
        ];
        for (const metric of fundingMetrics(portable.meteredUsage?.usageTiers ?? [])) {
          const balanceId = balances.get(`${row.productId}/${metric}`);
          if (balanceId)
            edges.push({
              field: "meteredUsage.usageTiers.fundingBalanceMetric",
              kind: "MonitoredAsset",
              id: balanceId,
            });
        }
        return [row.id, { item: { id: row.id, productId: row.productId!, ...portable }, edges }];
      }),
    );
  },
};
