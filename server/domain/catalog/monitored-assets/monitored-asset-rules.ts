import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { validateUsageTiers, type TUsageTier } from "./usage-tier.schemas.ts";

/**
 * Statuses of an owning entitlement or offer under which metering draws on its copies of
 * monitored assets and balances (docs/api.md "States and transitions", asset balance rows).
 */
export const meteringOwnerStatuses = ["Draft", "Published"];

/** The `where` that picks assets held by an entitlement or offer whose metering is live. */
export const drawnOnAssetWhere = {
  ownerKind: { in: ["Entitlement", "Offer"] },
  ownerStatus: { in: meteringOwnerStatuses },
};

/**
 * Whether the balance is a copy held by an entitlement or offer that is Draft or Published:
 * one query over the owner columns of its monitored asset.
 */
export async function isBalanceDrawnOn(db: TenantDbOrTx, balanceId: string): Promise<boolean> {
  return (await db.balanceUsage.count({ where: { id: balanceId, monitoredAsset: drawnOnAssetWhere } })) > 0;
}

/**
 * Metric names of the credit balances the owners (products, entitlements or offers) hold: what a
 * usage tier's `fundingBalanceMetric` may name on an owner's asset, or in a plan set or add-on of a
 * suite of these products.
 */
export async function balanceMetricNames(db: TenantDbOrTx, ownerIds: readonly string[]): Promise<string[]> {
  if (ownerIds.length === 0) return [];
  const rows = await db.monitoredAsset.findMany({
    where: { ownerId: { in: [...ownerIds] }, balanceUsages: { some: {} } },
    select: { metricName: true },
  });
  return [...new Set(rows.map((r) => r.metricName))].sort();
}

export function checkTiers(tiers: readonly TUsageTier[], balanceMetrics: readonly string[]): void {
  const issues = validateUsageTiers(tiers, {
    balanceMetricNames: balanceMetrics,
    path: "meteredUsage.usageTiers",
  });
  if (issues.length)
    throw validationError(
      `Invalid usage tiers: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
}

export const metricNameTaken = (metricName: string) =>
  new AppError(
    "asset.metric_taken",
    `The owner already has a monitored asset with metricName "${metricName}".`,
  );
