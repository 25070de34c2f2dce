import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { queryReport } from "../../db/report-queries.ts";
import { now } from "../../clock.ts";
import { flushRefusals } from "./refusal-counts.ts";

/**
 * The back office's home page (docs/decisions.md "Operations"): a tenant's live figures,
 * each read by one statement that walks an index from the tenant's first column, so the page stays
 * fast with a million sessions (tests/int/operations/dashboard-plans.int.test.ts reads the plans).
 * Every statement takes `$1` the tenant and `$2` the clock's now.
 */

const DAY_MS = 86_400_000;
export const ACTIVATION_DAYS = 30;
export const EXPIRING_DAYS = 30;
export const WEBHOOK_DAYS = 7;
export const REFUSAL_DAYS = 7;

/**
 * Sessions holding a seat now, counted license by license on the index activation counts a
 * license's seats with (LicenseSession (tenantId, entitlementId, revokedAt, seatHeldUntil)): a
 * tenant-wide index of its own cost every activation an index write (migration 20261124202000).
 */
export const ACTIVE_SESSIONS_SQL = `
  SELECT coalesce(sum(held.n), 0)::int AS n
  FROM "Entitlement" e CROSS JOIN LATERAL (
    SELECT count(*) AS n FROM "LicenseSession" s
    WHERE s."tenantId" = $1::uuid AND s."entitlementId" = e.id AND s."revokedAt" IS NULL AND s."seatHeldUntil" > $2::timestamptz) held
  WHERE e."tenantId" = $1::uuid`;

/** Seats of the Published licenses in force now. */
export const SEATS_IN_FORCE_SQL = `
  SELECT coalesce(sum(coalesce(("claimBasedActivation"->>'numberOfSeats')::int, 1)), 0)::int AS seats,
         count(*)::int AS licenses
  FROM "Entitlement"
  WHERE "tenantId" = $1::uuid AND status = 'Published'
    AND ("notValidBeforeDateTime" IS NULL OR "notValidBeforeDateTime" <= $2::timestamptz)
    AND ("expirationDateTime" IS NULL OR "expirationDateTime" > $2::timestamptz)`;

/** Activations per UTC day since $3 (index LicenseSession (tenantId, activatedAt)). */
export const ACTIVATIONS_PER_DAY_SQL = `
  SELECT to_char("activatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
  FROM "LicenseSession"
  WHERE "tenantId" = $1::uuid AND "activatedAt" >= $3::timestamptz AND "activatedAt" <= $2::timestamptz
  GROUP BY 1 ORDER BY 1`;

/** Published licenses expiring within $3 (index Entitlement (tenantId, expirationDateTime)). */
export const EXPIRING_SQL = `
  SELECT id, name, "expirationDateTime" AS "expiresAt", count(*) OVER ()::int AS total
  FROM "Entitlement"
  WHERE "tenantId" = $1::uuid AND status = 'Published'
    AND "expirationDateTime" >= $2::timestamptz AND "expirationDateTime" <= $3::timestamptz
  ORDER BY "expirationDateTime", id LIMIT 5`;

/** Trials (offer trials and anonymous tries): in force now, issued, converted. */
export const TRIALS_SQL = `
  SELECT (count(*) FILTER (WHERE status = 'Published'
            AND ("expirationDateTime" IS NULL OR "expirationDateTime" > $2::timestamptz)))::int AS active,
         count(*)::int AS issued,
         (count(*) FILTER (WHERE "convertedToEntitlementId" IS NOT NULL))::int AS converted
  FROM "Entitlement"
  WHERE "tenantId" = $1::uuid AND ("isEntitlementTrial" OR "isAnonymousTry")`;

/** Usage and credits of the meters' current periods, per metric. */
export const USAGE_SQL = `
  SELECT "metricName", sum(usage)::text AS usage, sum("creditsCharged")::text AS "creditsCharged",
         count(DISTINCT "entitlementId")::int AS licenses
  FROM "MeterPeriod"
  WHERE "tenantId" = $1::uuid
    AND ("periodStart" IS NULL OR "periodStart" <= $2::timestamptz)
    AND ("periodEnd" IS NULL OR "periodEnd" > $2::timestamptz)
  GROUP BY "metricName" ORDER BY "metricName"`;

/** Credits consumption took from balances since $3 (index BalanceHistoryEntry (tenantId, createdAt)). */
export const CREDIT_BURN_SQL = `
  SELECT "metricName", sum(abs(amount))::text AS credits
  FROM "BalanceHistoryEntry"
  WHERE "tenantId" = $1::uuid AND "createdAt" >= $3::timestamptz AND "createdAt" <= $2::timestamptz
    AND operation IN ('Consume', 'OverageCharge', 'UsageCharge')
  GROUP BY "metricName" ORDER BY "metricName"`;

/** Webhook deliveries made since $3 by status, and the dead letters kept. */
export const WEBHOOKS_SQL = `
  SELECT status, count(*)::int AS n FROM "WebhookDelivery"
  WHERE "tenantId" = $1::uuid AND "createdAt" >= $3::timestamptz AND "createdAt" <= $2::timestamptz
    AND status <> 'captured'
  GROUP BY status`;
export const DEAD_LETTERS_SQL = `
  SELECT count(*)::int AS n FROM "WebhookDelivery"
  WHERE "tenantId" = $1::uuid AND status = 'dead' AND "createdAt" <= $2::timestamptz`;

/** Refusals since $3 by operation and code. */
export const REFUSALS_SQL = `
  SELECT operation, "codeName", sum(count)::int AS n FROM "RefusalCount"
  WHERE "tenantId" = $1::uuid AND day >= $3::date AND day <= ($2::timestamptz AT TIME ZONE 'UTC')::date
  GROUP BY operation, "codeName" ORDER BY n DESC, "codeName" LIMIT 10`;

const ZCount = z.object({ label: z.string(), count: z.number().int() });

export const ZDashboard = z.object({
  generatedAt: z.string(),
  seats: z.object({
    activeSessions: z.number().int(),
    seatsInForce: z.number().int(),
    licensesInForce: z.number().int(),
    /** activeSessions / seatsInForce, 0..1+ (floating seats may exceed 1 briefly); null without seats. */
    utilization: z.number().nullable(),
  }),
  activationsPerDay: z.array(z.object({ day: z.string(), count: z.number().int() })),
  activationsTotal: z.number().int(),
  expiring: z.object({
    count: z.number().int(),
    soonest: z.array(z.object({ id: z.string(), name: z.string(), expiresAt: z.string() })),
  }),
  trials: z.object({
    active: z.number().int(),
    issued: z.number().int(),
    converted: z.number().int(),
    conversionRate: z.number().nullable(),
  }),
  usage: z.array(
    z.object({
      metricName: z.string(),
      usage: z.string(),
      creditsCharged: z.string(),
      licenses: z.number().int(),
    }),
  ),
  creditBurn: z.array(z.object({ metricName: z.string(), credits: z.string() })),
  webhooks: z.object({
    byStatus: z.array(ZCount),
    succeeded: z.number().int(),
    failed: z.number().int(),
    /** Finished deliveries that succeeded, 0..1; null when none finished. */
    successRate: z.number().nullable(),
    deadLetters: z.number().int(),
  }),
  refusals: z.array(z.object({ operation: z.string(), codeName: z.string(), count: z.number().int() })),
});
export type TDashboard = z.infer<typeof ZDashboard>;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The tenant's dashboard figures, as of the clock's now. */
export async function readDashboard(ctx: DomainContext): Promise<TDashboard> {
  const at = now();
  const since = (days: number) => new Date(at.getTime() - days * DAY_MS);
  const activationsFrom = new Date(`${utcDay(since(ACTIVATION_DAYS - 1))}T00:00:00Z`);
  // The last seconds' refusals are still in memory: write them before reading.
  await flushRefusals();
  const q = <T>(sql: string, third?: Date | string) =>
    queryReport<T>(sql, third === undefined ? [ctx.tenantId, at] : [ctx.tenantId, at, third]);
  const [[active], [inForce], perDay, expiring, [trials], usage, burn, webhooks, [dead], refusals] =
    await Promise.all([
      q<{ n: number }>(ACTIVE_SESSIONS_SQL),
      q<{ seats: number; licenses: number }>(SEATS_IN_FORCE_SQL),
      q<{ day: string; n: number }>(ACTIVATIONS_PER_DAY_SQL, activationsFrom),
      q<{ id: string; name: string; expiresAt: Date; total: number }>(
        EXPIRING_SQL,
        new Date(at.getTime() + EXPIRING_DAYS * DAY_MS),
      ),
      q<{ active: number; issued: number; converted: number }>(TRIALS_SQL),
      q<{ metricName: string; usage: string; creditsCharged: string; licenses: number }>(USAGE_SQL),
      q<{ metricName: string; credits: string }>(CREDIT_BURN_SQL, since(ACTIVATION_DAYS)),
      q<{ status: string; n: number }>(WEBHOOKS_SQL, since(WEBHOOK_DAYS)),
      q<{ n: number }>(DEAD_LETTERS_SQL),
      q<{ operation: string; codeName: string; n: number }>(REFUSALS_SQL, utcDay(since(REFUSAL_DAYS - 1))),
    ]);

  const counts = new Map(perDay.map((r) => [r.day, r.n]));
  const activationsPerDay = Array.from({ length: ACTIVATION_DAYS }, (_, i) => {
    const day = utcDay(new Date(activationsFrom.getTime() + i * DAY_MS));
    return { day, count: counts.get(day) ?? 0 };
  });
  const byStatus = webhooks.map((w) => ({ label: w.status, count: w.n }));
  const succeeded = webhooks.find((w) => w.status === "succeeded")?.n ?? 0;
  const failed = webhooks
    .filter((w) => w.status === "dead" || w.status === "failed")
    .reduce((s, w) => s + w.n, 0);
  return {
    generatedAt: at.toISOString(),
    seats: {
      activeSessions: active.n,
      seatsInForce: inForce.seats,
      licensesInForce: inForce.licenses,
      utilization: inForce.seats > 0 ? active.n / inForce.seats : null,
    },
    activationsPerDay,
    activationsTotal: activationsPerDay.reduce((s, d) => s + d.count, 0),
    expiring: {
      count: expiring[0]?.total ?? 0,
      soonest: expiring.map((e) => ({
        id: e.id,
        name: e.name,
        expiresAt: new Date(e.expiresAt).toISOString(),
      })),
    },
    trials: {
      ...trials,
      conversionRate: trials.issued > 0 ? trials.converted / trials.issued : null,
    },
    usage,
    creditBurn: burn,
    webhooks: {
      byStatus,
      succeeded,
      failed,
      successRate: succeeded + failed > 0 ? succeeded / (succeeded + failed) : null,
      deadLetters: dead.n,
    },
    refusals: refusals.map((r) => ({ operation: r.operation, codeName: r.codeName, count: r.n })),
  };
}
