import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";

/**
 * The last 200 entries of one entitlement balance, oldest first: deposits, withdrawals, sets,
 * consumer grants and auto-balances, and the consumption charged to it (the back office's and the
 * portal's "balance over time" chart). Entries are in the order they were written under the
 * balance's lock (`seq`).
 */
export async function listBalanceHistory(ctx: DomainContext, entitlementId: string, metricName: string) {
  const asset = await ctx.db.monitoredAsset.findFirst({
    where: { ownerKind: "Entitlement", entitlementId, metricName },
    include: { balanceUsages: { select: { id: true } } },
  });
  const balance = asset?.balanceUsages[0];
  if (!balance) throw notFound(`Credit balance "${metricName}" on the entitlement`);
  const rows = await ctx.db.balanceHistoryEntry.findMany({
    where: { balanceUsageId: balance.id },
    orderBy: { seq: "desc" },
    take: 200,
  });
  return rows.reverse().map((r) => ({
    id: r.id,
    operation: r.operation,
    amount: r.amount.toNumber(),
    unfundedAmount: r.unfundedAmount.toNumber(),
    totalCreditsAfter: r.totalCreditsAfter.toNumber(),
    creditsUsedAfter: r.creditsUsedAfter.toNumber(),
    remainingAfter: r.totalCreditsAfter.minus(r.creditsUsedAfter).toNumber(),
    actorKind: r.actorKind,
    /** Who made the entry (a user's name, a client's id); null for the service's own entries. */
    actorLabel: r.actorLabel,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Metric names of the entitlement's credit balances (for the back office's balance picker). */
export async function listEntitlementBalanceMetrics(
  ctx: DomainContext,
  entitlementId: string,
): Promise<string[]> {
  const rows = await ctx.db.monitoredAsset.findMany({
    where: { ownerKind: "Entitlement", entitlementId, balanceUsages: { some: {} } },
    select: { metricName: true },
    orderBy: { metricName: "asc" },
  });
  return rows.map((r) => r.metricName);
}
