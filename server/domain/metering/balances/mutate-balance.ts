import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { NUMERIC_24_6_LIMIT } from "../../../core/numeric.ts";
import {
  monitoredAssetInclude,
  toMonitoredAssetResponse,
} from "../../catalog/monitored-assets/monitored-asset-response.ts";
import type { TBalanceMutationResponse, TBalanceOperation } from "./balance-mutation.schemas.ts";
import { asSeverity, balanceSeverity, type QuotaBand } from "../overage/severity.ts";
import { emitOverageEvents } from "../overage/overage-events.ts";
import { micros } from "../quantity.ts";

/**
 * The arithmetic of the balance mutations (remaining = totalCredits - creditsUsed, docs/api.md
 * "balanceUsage"), each one atomic UPDATE on the row (so parallel mutations serialize on its
 * row lock and never lose an update):
 *   Deposit / ConsumerGrant(a): totalCredits := remaining + a, creditsUsed := 0, lastDeposit := now
 *     (creditsUsed counts consumption since the last deposit); refused when the result would not
 *     fit the numeric(24,6) column.
 *   Withdraw(a): totalCredits := totalCredits - a, refused when a > remaining (creditsUsed,
 *     lastDeposit untouched: taking credits back is not consumption).
 *   Set(a): totalCredits := a, creditsUsed := 0, lastDeposit := now (remaining becomes a).
 * cumulativeCreditsUsed and unfundedCredits never change here: they record consumption.
 */
async function applyArithmetic(
  tx: TenantTx,
  tenantId: string,
  balanceId: string,
  operation: TBalanceOperation,
  amount: number,
  at: Date,
) {
  const a = amount.toFixed(6);
  type Row = {
    totalCredits: string;
    creditsUsed: string;
    usageQuota: unknown;
    overageSeverityStatus: string;
  };
  switch (operation) {
    case "Deposit":
    case "ConsumerGrant":
      return tx.$queryRaw<Row[]>`
        UPDATE "BalanceUsage" SET "totalCredits" = "totalCredits" - "creditsUsed" + ${a}::numeric, "creditsUsed" = 0, "lastDeposit" = ${at}, "updatedAt" = ${at}
        WHERE "id" = ${balanceId}::uuid AND "tenantId" = ${tenantId}::uuid AND "totalCredits" - "creditsUsed" + ${a}::numeric < ${NUMERIC_24_6_LIMIT}::numeric
        RETURNING "totalCredits"::text, "creditsUsed"::text, "usageQuota", "overageSeverityStatus"`;
    case "Withdraw":
      return tx.$queryRaw<Row[]>`
        UPDATE "BalanceUsage" SET "totalCredits" = "totalCredits" - ${a}::numeric, "updatedAt" = ${at}
        WHERE "id" = ${balanceId}::uuid AND "tenantId" = ${tenantId}::uuid AND "totalCredits" - "creditsUsed" >= ${a}::numeric
        RETURNING "totalCredits"::text, "creditsUsed"::text, "usageQuota", "overageSeverityStatus"`;
    case "Set":
      return tx.$queryRaw<Row[]>`
        UPDATE "BalanceUsage" SET "totalCredits" = ${a}::numeric, "creditsUsed" = 0, "lastDeposit" = ${at}, "updatedAt" = ${at}
        WHERE "id" = ${balanceId}::uuid AND "tenantId" = ${tenantId}::uuid
        RETURNING "totalCredits"::text, "creditsUsed"::text, "usageQuota", "overageSeverityStatus"`;
  }
}

/** Who made a balance entry as people read it: a user's name (else email), a client's id. */
async function actorLabelOf(tx: TenantTx, actor: DomainContext["actor"]): Promise<string | null> {
  if (actor.kind === "client") return actor.clientId;
  if (actor.kind !== "user") return null;
  const user = await tx.user.findFirst({ where: { id: actor.id }, select: { name: true, email: true } });
  return user ? user.name || user.email : null;
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
    const entitlement = await tx.entitlement.findFirst({
      where: { id: entitlementId },
      select: { id: true },
    });
    if (!entitlement) throw notFound("Entitlement");
    const asset = await tx.monitoredAsset.findFirst({
      where: { ownerKind: "Entitlement", entitlementId, metricName },
      include: { balanceUsages: { select: { id: true, isUnlimitedCredits: true } } },
    });
    const balance = asset?.balanceUsages[0];
    if (!asset || !balance) throw notFound(`Credit balance "${metricName}" on the entitlement`);
    if (balance.isUnlimitedCredits)
      throw new AppError(
        "balance.unlimited",
        `The balance "${metricName}" has unlimited credits; there is nothing to ${operation.toLowerCase()}.`,
      );
    const at = now();
    const rows = await applyArithmetic(tx, ctx.tenantId, balance.id, operation, amount, at);
    if (rows.length === 0)
      throw operation === "Withdraw"
        ? new AppError(
            "balance.insufficient_credits",
            `Cannot withdraw ${amount}: the balance "${metricName}" has less remaining.`,
          )
        : new AppError(
            "balance.limit_exceeded",
            `Adding ${amount} would take the balance "${metricName}" to 10^18 credits or more.`,
          );
    // A top-up (or a withdrawal) can move the remaining credits into another usageQuota band.
    const remaining = micros(rows[0].totalCredits) - micros(rows[0].creditsUsed);
    const bands = Array.isArray(rows[0].usageQuota) ? (rows[0].usageQuota as QuotaBand[]) : [];
    const severity = balanceSeverity(bands, remaining);
    if (severity !== rows[0].overageSeverityStatus) {
      await tx.balanceUsage.update({ where: { id: balance.id }, data: { overageSeverityStatus: severity } });
      await emitOverageEvents(
        tx,
        ctx.tenantId,
        entitlementId,
        [
          {
            usageKind: "Balance",
            monitoredAssetId: asset.id,
            metricName,
            previous: asSeverity(rows[0].overageSeverityStatus),
            severity,
            usage: micros(rows[0].creditsUsed),
            limit: micros(rows[0].totalCredits),
          },
        ],
        at,
      );
    }
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
        actorLabel: await actorLabelOf(tx, ctx.actor),
        createdAt: at,
      },
    });
    const fresh = await tx.monitoredAsset.findFirstOrThrow({
      where: { id: asset.id },
      include: monitoredAssetInclude,
    });
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
