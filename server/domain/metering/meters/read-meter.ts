import { sqlOf, type Sql } from "../../../db/sql.ts";
import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { noActiveSession } from "../../licensing/sessions/session-access.ts";
import { remainingOf, rungAt, severityAt } from "../consumption/ladder.ts";
import { periodFields } from "../consumption/decide-consumption.ts";
import { balanceSeverity } from "../overage/severity.ts";
import { LIFETIME, periodOf } from "../periods/period.ts";
import { micros, toNumber } from "../quantity.ts";
import { entitlementMeters, type EntitlementMeters, type MeterTerms } from "./meter-terms.ts";
import { METER_VERSION_EXPRESSION } from "./meter-version.ts";
import type { TBalanceView, TMeterConsumptionResponse, TMeterUsageResponse } from "./meter.schemas.ts";

/** $1 tenant, $2 entitlement, $3 session, $4 now, $5 asset, $6 period key, $7 meteredUsage id. */
const READ_METER = `
SELECT (s."revokedAt" IS NULL AND s."graceExpiresAt" > $4 AND e.status = 'Published') IS TRUE AS live,
  ${METER_VERSION_EXPRESSION} AS version,
  coalesce(mp.usage, 0)::text AS usage, coalesce(mp."consumedUsage", 0)::text AS "consumedUsage",
  coalesce(mp."reportedUsage", 0)::text AS "reportedUsage", coalesce(mp."consumeCount", 0) AS "consumeCount",
  coalesce(mp."recordCount", 0) AS "recordCount",
  mu."suspendedUntilAt", coalesce(mu."lastReportedOverageSeverityStatus", 'None') AS "lastReportedSeverity"
FROM (SELECT 1) one
  LEFT JOIN "LicenseSession" s ON s."tenantId" = $1 AND s.id = $3 AND s."entitlementId" = $2
  LEFT JOIN "Entitlement" e ON e."tenantId" = $1 AND e.id = $2
  LEFT JOIN "MeterPeriod" mp ON mp."tenantId" = $1 AND mp."monitoredAssetId" = $5 AND mp."periodKey" = $6
  LEFT JOIN "MeteredUsage" mu ON mu."tenantId" = $1 AND mu.id = $7`;

/** $1 tenant, $2 balance ids. */
export const READ_BALANCE_VIEWS = `
SELECT bu.id, bu."totalCredits"::text AS "totalCredits", bu."creditsUsed"::text AS "creditsUsed",
  bu."cumulativeCreditsUsed"::text AS "cumulativeCreditsUsed", bu."unfundedCredits"::text AS "unfundedCredits",
  bu."lastUnfundedAt", bu."lastDeposit", bu."isUnlimitedCredits", bu."initialCreditAmount"::text AS "initialCreditAmount",
  bu."usageQuota", bu."overageSeverityStatus", bu."suspendedUntilAt", bu."autoBalanceCronSchedule", bu."lastAutoBalanceDate"
FROM "BalanceUsage" bu WHERE bu."tenantId" = $1 AND bu.id = ANY($2::uuid[]) ORDER BY bu.id`;

type BalanceViewRow = {
  id: string;
  totalCredits: string;
  creditsUsed: string;
  cumulativeCreditsUsed: string;
  unfundedCredits: string;
  lastUnfundedAt: Date | null;
  lastDeposit: Date | null;
  isUnlimitedCredits: boolean;
  initialCreditAmount: string;
  usageQuota: unknown;
  overageSeverityStatus: string;
  suspendedUntilAt: Date | null;
  autoBalanceCronSchedule: string | null;
  lastAutoBalanceDate: Date | null;
};

export function toBalanceView(metricName: string, r: BalanceViewRow): TBalanceView {
  const remaining = micros(r.totalCredits) - micros(r.creditsUsed);
  return {
    metricName,
    balanceUsageId: r.id,
    totalCredits: toNumber(micros(r.totalCredits)),
    creditsUsed: toNumber(micros(r.creditsUsed)),
    remainingCredits: r.isUnlimitedCredits ? null : toNumber(remaining),
    cumulativeCreditsUsed: toNumber(micros(r.cumulativeCreditsUsed)),
    unfundedCredits: toNumber(micros(r.unfundedCredits)),
    lastUnfundedAt: r.lastUnfundedAt?.toISOString() ?? null,
    lastDeposit: r.lastDeposit?.toISOString() ?? null,
    isUnlimitedCredits: r.isUnlimitedCredits,
    initialCreditAmount: toNumber(micros(r.initialCreditAmount)),
    severity: balanceSeverity(Array.isArray(r.usageQuota) ? r.usageQuota : [], remaining),
    overageSeverityStatus: r.overageSeverityStatus,
    suspendedUntilAt: r.suspendedUntilAt?.toISOString() ?? null,
    autoBalanceCronSchedule: r.autoBalanceCronSchedule,
    lastAutoBalanceDate: r.lastAutoBalanceDate?.toISOString() ?? null,
  };
}

/** The balances a meter reports: its own, or those its overage tiers are funded by. */
export async function balanceViews(
  sql: Sql,
  tenantId: string,
  meters: EntitlementMeters,
  terms: MeterTerms,
): Promise<TBalanceView[]> {
  const metrics =
    terms.kind === "Balance"
      ? [terms.metricName]
      : [...new Set(terms.ladder.rungs.map((r) => r.fundingBalanceMetric).filter(Boolean))];
  const byId = new Map<string, string>();
  for (const m of metrics) {
    const t = meters.meters.get(m);
    if (t?.balanceUsageId) byId.set(t.balanceUsageId, m);
  }
  if (!byId.size) return [];
  const rows = await sql.query<BalanceViewRow>(
    { name: "metering.read_balance_views", text: READ_BALANCE_VIEWS },
    [tenantId, [...byId.keys()]],
  );
  return rows.map((r) => toBalanceView(byId.get(r.id)!, r));
}

type Snapshot = { meters: EntitlementMeters; terms: MeterTerms; usage: TMeterUsageResponse };

/** The current period's figures of a session's metric; null when the license does not track it. */
async function snapshot(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string; metricName: string },
): Promise<Snapshot | null> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const meters = await entitlementMeters(ctx.db, ctx.tenantId, input.entitlementId, {
      refresh: attempt > 0,
    });
    if (!meters) throw noActiveSession();
    const terms = meters.meters.get(input.metricName);
    const at = now();
    const period = terms?.kind === "Metered" ? periodOf(terms, meters.anchorAt, at) : LIFETIME;
    const rows = await sqlOf(ctx.db).query<any>({ name: "metering.read_meter", text: READ_METER }, [
      ctx.tenantId,
      input.entitlementId,
      input.sessionId,
      at,
      terms?.monitoredAssetId ?? null,
      period.key,
      terms?.meteredUsageId ?? null,
    ]);
    const row = rows[0];
    if (!row.live) throw noActiveSession();
    if (row.version !== meters.version) continue;
    if (!terms) return null;
    if (terms.kind === "Balance") {
      const [balance] = await balanceViews(sqlOf(ctx.db), ctx.tenantId, meters, terms);
      if (!balance) continue;
      return {
        meters,
        terms,
        usage: {
          entitlementId: input.entitlementId,
          metricName: input.metricName,
          usageKind: "Balance",
          metricType: terms.metricType,
          ...periodFields(LIFETIME),
          usage: balance.creditsUsed,
          consumedUsage: balance.creditsUsed,
          reportedUsage: 0,
          limit: balance.isUnlimitedCredits ? null : balance.totalCredits,
          remaining: balance.remainingCredits,
          tierName: null,
          severity: balance.severity,
          lastReportedSeverity: balance.overageSeverityStatus,
          suspendedUntilAt: balance.suspendedUntilAt,
          consumeCount: 0,
          recordCount: 0,
        },
      };
    }
    const usage = micros(row.usage);
    const remaining = remainingOf(terms.ladder, usage);
    return {
      meters,
      terms,
      usage: {
        entitlementId: input.entitlementId,
        metricName: input.metricName,
        usageKind: terms.kind,
        metricType: terms.metricType,
        ...periodFields(period),
        usage: toNumber(usage),
        consumedUsage: toNumber(micros(row.consumedUsage)),
        reportedUsage: toNumber(micros(row.reportedUsage)),
        limit: terms.ladder.limit === null ? null : toNumber(terms.ladder.limit),
        remaining: remaining === null ? null : toNumber(remaining),
        tierName: rungAt(terms.ladder, usage)?.name ?? null,
        severity: severityAt(terms.ladder, usage),
        lastReportedSeverity: row.lastReportedSeverity,
        suspendedUntilAt: row.suspendedUntilAt?.toISOString() ?? null,
        consumeCount: row.consumeCount,
        recordCount: row.recordCount,
      },
    };
  }
  throw new AppError("license.conflict", "The license's metering terms kept changing; retry the request.");
}

/** GET /usage/{sessionId}/{metric}/usage; null (204) for a metric the license does not track. */
export async function readMeterUsage(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string; metricName: string },
): Promise<TMeterUsageResponse | null> {
  return (await snapshot(ctx, input))?.usage ?? null;
}

/** GET /usage/{sessionId}/{metric}/consumption; null (204) for a metric the license does not track. */
export async function readMeterConsumption(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string; metricName: string },
): Promise<TMeterConsumptionResponse | null> {
  const found = await snapshot(ctx, input);
  if (!found) return null;
  const { usage } = found;
  return {
    entitlementId: usage.entitlementId,
    metricName: usage.metricName,
    usageKind: usage.usageKind,
    periodKey: usage.periodKey,
    periodStart: usage.periodStart,
    periodEnd: usage.periodEnd,
    usage: usage.usage,
    limit: usage.limit,
    remaining: usage.remaining,
    severity: usage.severity,
    balances: await balanceViews(sqlOf(ctx.db), ctx.tenantId, found.meters, found.terms),
  };
}
