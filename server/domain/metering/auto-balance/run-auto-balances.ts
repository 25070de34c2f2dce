import type { Sql, SqlTx, Statement } from "../../../db/sql.ts";
import { balanceRowFrom } from "../consumption/decide-consumption.ts";
import { emitSeverityChanges } from "../overage/overage-events.ts";
import { balanceSeverity } from "../overage/severity.ts";
import { micros, minMicros, maxMicros, toDecimalString, type Micros } from "../quantity.ts";
import { latestScheduledInstant } from "./auto-balance-schedule.ts";

/** Balances with a schedule on Published entitlements, across tenants (the worker's scan). */
const SCHEDULED_BALANCES: Statement = {
  name: "metering.scheduled_balances",
  text: `
SELECT bu."tenantId", bu.id, bu."autoBalanceCronSchedule" AS schedule, bu."lastAutoBalanceDate", bu."createdAt",
  a.id AS "monitoredAssetId", a."entitlementId", a."metricName"
FROM "BalanceUsage" bu
JOIN "MonitoredAsset" a ON a."tenantId" = bu."tenantId" AND a.id = bu."monitoredAssetId"
WHERE bu."autoBalanceCronSchedule" IS NOT NULL AND NOT bu."isUnlimitedCredits"
  AND a."ownerKind" = 'Entitlement' AND a."ownerStatus" = 'Published'`,
};

/** The run's row first: the primary key (tenant, balance, instant) admits one run per instant. */
const CLAIM_RUN: Statement = {
  name: "metering.claim_auto_balance",
  text: `
INSERT INTO "AutoBalanceRun" ("tenantId", "balanceUsageId", "scheduledAt", "entitlementId", "metricName",
  "remainingBefore", "creditsTransferred", "creditsAdded", "remainingAfter", "ranAt")
VALUES ($1, $2, $3, $4, $5, 0, 0, 0, 0, $6)
ON CONFLICT DO NOTHING RETURNING 1`,
};

const LOCK_BALANCE: Statement = {
  name: "metering.lock_auto_balance",
  text: `
SELECT bu.id, bu."totalCredits"::text AS "totalCredits", bu."creditsUsed"::text AS "creditsUsed",
  bu."isUnlimitedCredits", bu."suspendedUntilAt", bu."usageQuota", bu."overageSeverityStatus",
  bu."autoBalanceCronSchedule" AS schedule, bu."lastAutoBalanceDate",
  bu."shouldAutoBalanceTransferCurrentCredits" AS transfer,
  bu."maxAutoBalanceCreditTransferAmount"::text AS "maxTransfer", bu."autoBalanceCreditAmount"::text AS "creditAmount"
FROM "BalanceUsage" bu WHERE bu."tenantId" = $1 AND bu.id = $2 FOR UPDATE`,
};

/** $1 tenant, $2 balance, $3 instant, $4 now, $5 new total, $6 severity, $7 entitlement, $8 metric, $9 before, $10 transferred, $11 added. */
const APPLY_RUN: Statement = {
  name: "metering.apply_auto_balance",
  text: `
WITH b AS (
  UPDATE "BalanceUsage" SET "totalCredits" = $5, "creditsUsed" = 0, "lastDeposit" = $4, "lastAutoBalanceDate" = $3,
    "overageSeverityStatus" = $6, "updatedAt" = $4
  WHERE "tenantId" = $1 AND id = $2 RETURNING id
), h AS (
  INSERT INTO "BalanceHistoryEntry" (id, "tenantId", "balanceUsageId", "entitlementId", "metricName", operation, amount,
    "totalCreditsAfter", "creditsUsedAfter", "sourceRef", "actorKind", "actorId", "createdAt")
  SELECT gen_random_uuid(), $1, b.id, $7, $8, 'AutoBalance', $5, $5, 0, 'auto-balance:' || to_char($3::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'system', 'auto-balance', $4
  FROM b RETURNING 1
)
UPDATE "AutoBalanceRun" SET "remainingBefore" = $9, "creditsTransferred" = $10, "creditsAdded" = $11, "remainingAfter" = $5
WHERE "tenantId" = $1 AND "balanceUsageId" = $2 AND "scheduledAt" = $3`,
};

type Scheduled = {
  tenantId: string;
  id: string;
  schedule: string;
  lastAutoBalanceDate: Date | null;
  createdAt: Date;
  monitoredAssetId: string;
  entitlementId: string;
  metricName: string;
};

/**
 * What an auto-balance does to a balance (docs/decisions.md "Metering"): the remaining credits
 * become `autoBalanceCreditAmount` (none: 0) plus, when `shouldAutoBalanceTransferCurrentCredits`,
 * what remained (never negative), capped at `maxAutoBalanceCreditTransferAmount` (none: no cap).
 * Like a set: totalCredits = that, creditsUsed = 0, lastDeposit = now.
 */
export function autoBalanceAmounts(input: {
  remaining: Micros;
  transfer: boolean;
  maxTransfer: Micros | null;
  creditAmount: Micros | null;
}) {
  const carried = input.transfer ? maxMicros(input.remaining, 0n) : 0n;
  const transferred = input.maxTransfer === null ? carried : minMicros(carried, input.maxTransfer);
  const added = input.creditAmount ?? 0n;
  return { transferred, added, remainingAfter: transferred + added };
}

/** One balance at one instant, once: false when another worker (or an earlier run) had it. */
async function runOnce(sql: Sql, b: Scheduled, instant: Date, at: Date): Promise<boolean> {
  try {
    return await sql.transaction(b.tenantId, (client) => balanceOnce(client, b, instant, at));
  } catch (error) {
    if (error instanceof NothingToDo) return false;
    throw error;
  }
}

/** Rolls the run's claim back: another worker or an earlier run had the instant. */
class NothingToDo extends Error {}

async function balanceOnce(client: SqlTx, b: Scheduled, instant: Date, at: Date): Promise<true> {
  {
    const claimed = await client.query(CLAIM_RUN, [
      b.tenantId,
      b.id,
      instant,
      b.entitlementId,
      b.metricName,
      at,
    ]);
    const rows = claimed.length ? await client.query<any>(LOCK_BALANCE, [b.tenantId, b.id]) : [];
    const row = rows[0];
    // The schedule was changed or a later instant already ran: nothing to do for this one.
    if (
      !row ||
      row.schedule !== b.schedule ||
      (row.lastAutoBalanceDate && row.lastAutoBalanceDate >= instant)
    )
      throw new NothingToDo();
    const balance = balanceRowFrom(b.metricName, row);
    const remaining = balance.totalCredits - balance.creditsUsed;
    const amounts = autoBalanceAmounts({
      remaining,
      transfer: row.transfer,
      maxTransfer: row.maxTransfer === null ? null : micros(row.maxTransfer),
      creditAmount: row.creditAmount === null ? null : micros(row.creditAmount),
    });
    const severity = balanceSeverity(balance.usageQuota, amounts.remainingAfter);
    await client.query(APPLY_RUN, [
      b.tenantId,
      b.id,
      instant,
      at,
      toDecimalString(amounts.remainingAfter),
      severity,
      b.entitlementId,
      b.metricName,
      toDecimalString(remaining),
      toDecimalString(amounts.transferred),
      toDecimalString(amounts.added),
    ]);
    if (severity !== balance.overageSeverityStatus)
      await emitSeverityChanges(
        client,
        b.tenantId,
        b.entitlementId,
        [
          {
            usageKind: "Balance",
            monitoredAssetId: b.monitoredAssetId,
            metricName: b.metricName,
            previous: balance.overageSeverityStatus,
            severity,
            usage: 0n,
            limit: amounts.remainingAfter,
          },
        ],
        at,
      );
    return true;
  }
}

/**
 * The worker's auto-balance (cron every minute; docs/architecture.md section 13): each scheduled balance of a
 * Published entitlement whose latest scheduled instant at or before `at` is after its last run
 * (or its creation) is balanced for that instant, exactly once however many workers run this at
 * the same time (a unique AutoBalanceRun per balance and instant). Missed instants are not
 * replayed one by one: a balance is brought to what its latest instant gives. Returns how many
 * balances this call balanced.
 */
export async function runAutoBalances(sql: Sql, at: Date): Promise<number> {
  const rows = await sql.query<Scheduled>(SCHEDULED_BALANCES, []);
  let ran = 0;
  for (const b of rows) {
    const instant = latestScheduledInstant(b.schedule, at);
    const since =
      b.lastAutoBalanceDate && b.lastAutoBalanceDate > b.createdAt ? b.lastAutoBalanceDate : b.createdAt;
    if (!instant || instant <= since) continue;
    if (await runOnce(sql, b, instant, at)) ran += 1;
  }
  return ran;
}
