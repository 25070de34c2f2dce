import type { DomainContext } from "../context.ts";
import { inTransaction, type TenantTx } from "../../db/tenant-db.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { now } from "../../clock.ts";
import { monitoredAssetInclude, toMonitoredAssetResponse } from "../catalog/monitored-asset-response.ts";
import type { TBalanceMutationResponse, TBalanceOperation } from "./balance-mutation.schemas.ts";

/**
 * The arithmetic of the balance mutations (remaining = totalCredits - creditsUsed, SPEC.md
 * "balanceUsage"), each one atomic UPDATE on the row (so parallel mutations serialize on its
 * row lock and never lose an update):
 *   Deposit / ConsumerGrant(a): totalCredits := remaining + a, creditsUsed := 0, lastDeposit := now
 *     (creditsUsed counts consumption since the last deposit).
 *   Withdraw(a): totalCredits := totalCredits - a, refused when a > remaining (creditsUsed,
 *     lastDeposit untouched: taking credits back is not consumption).
 *   Set(a): totalCredits := a, creditsUsed := 0, lastDeposit := now (remaining becomes a).
 * cumulativeCreditsUsed and unfundedCredits never change here: they record consumption.
 */
async function applyArithmetic(tx: TenantTx, tenantId: string, balanceId: string, operation: TBalanceOperation, amount: number, at: Date) {
  const a = amount.toFixed(6);
  type Row = { totalCredits: string; creditsUsed: string };
  switch (operation) {
    case "Deposit":
    case "ConsumerGrant":
      return tx.$queryRaw<Row[]>`
        UPDATE "BalanceUsage" SET "totalCredits" = "totalCredits" - "creditsUsed" + ${a}::numeric, "creditsUsed" = 0, "lastDeposit" = ${at}, "updatedAt" = ${at}
        WHERE "id" = ${balanceId}::uuid AND "tenantId" = ${tenantId}::uuid
        RETURNING "totalCredits"::text, "creditsUsed"::text`;
    case "Withdraw":
      return tx.$queryRaw<Row[]>`
        UPDATE "BalanceUsage" SET "totalCredits" = "totalCredits" - ${a}::numeric, "updatedAt" = ${at}
        WHERE "id" = ${balanceId}::uuid AND "tenantId" = ${tenantId}::uuid AND "totalCredits" - "creditsUsed" >= ${a}::numeric
        RETURNING "totalCredits"::text, "creditsUsed"::text`;
    case "Set":
      return tx.$queryRaw<Row[]>`
        UPDATE "BalanceUsage" SET "totalCredits" = ${a}::numeric, "creditsUsed" = 0, "lastDeposit" = ${at}, "updatedAt" = ${at}
        WHERE "id" = ${balanceId}::uuid AND "tenantId" = ${tenantId}::uuid
        RETURNING "totalCredits"::text, "creditsUsed"::text`;
  }
}

/**
 * One mutation of an entitlement's credit balance (its monitored-asset copy with balanceUsage,
 * found by exact metricName), plus a BalanceHistoryEntry for the balance chart. Runs in the
 * caller's transaction when there is one (the idempotent route wrapper's).
 */
export async function mutateBalance(
  ctx: DomainContext,
  entitlementId: string,
  metricName: string,
  operation: TBalanceOperation,
  amount: number,
): Promise<TBalanceMutationResponse> {
  return inTransaction(ctx.db, async (tx) => {
    const entitlement = await tx.entitlement.findFirst({ where: { id: entitlementId }, select: { id: true } });
    if (!entitlement) throw notFound("Entitlement");
    const asset = await tx.monitoredAsset.findFirst({
      where: { ownerKind: "Entitlement", entitlementId, metricName },
      include: { balanceUsages: { select: { id: true, isUnlimitedCredits: true } } },
    });
    const balance = asset?.balanceUsages[0];
    if (!asset || !balance) throw notFound(`Credit balance "${metricName}" on the entitlement`);
    if (balance.isUnlimitedCredits) throw new AppError("balance.unlimited", `The balance "${metricName}" has unlimited credits; there is nothing to ${operation.toLowerCase()}.`);
    const at = now();
    const rows = await applyArithmetic(tx, ctx.tenantId, balance.id, operation, amount, at);
    if (rows.length === 0) throw new AppError("balance.insufficient_credits", `Cannot withdraw ${amount}: the balance "${metricName}" has less remaining.`);
    await tx.balanceHistoryEntry.create({
      data: {
        tenantId: ctx.tenantId,
        balanceUsageId: balance.id,
        entitlementId,
        metricName,
        operation,
        amount: amount.toFixed(6),
        totalCreditsAfter: rows[0].totalCredits,
        creditsUsedAfter: rows[0].creditsUsed,
        actorKind: ctx.actor.kind,
        actorId: ctx.actor.id,
        createdAt: at,
      },
    });
    const fresh = await tx.monitoredAsset.findFirstOrThrow({ where: { id: asset.id }, include: monitoredAssetInclude });
    const balanceUsage = toMonitoredAssetResponse(fresh, []).balanceUsage!;
    return {
      entitlementId,
      metricName,
      monitoredAssetId: asset.id,
      operation,
      amount,
      remainingCredits: Number((balanceUsage.totalCredits - balanceUsage.creditsUsed).toFixed(6)),
      balanceUsage,
    };
  });
}
