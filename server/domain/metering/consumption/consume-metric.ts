import type { DomainContext } from "../../context.ts";
import { sqlOf, type Sql, type Statement } from "../../../db/sql.ts";
import { AppError } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { noActiveSession } from "../../licensing/sessions/session-access.ts";
import { entitlementMeters, type EntitlementMeters, type MeterTerms } from "../meters/meter-terms.ts";
import { micros } from "../quantity.ts";
import { countedRateLimits, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import { answer, metricNotTracked, StaleTerms, type ConsumeInput } from "./consume-answer.ts";
import { commitConsume } from "./commit-consume.ts";
import { decideOn } from "./decide-on-meter.ts";
import { fastCommit } from "./fast-consume.ts";

export type { ConsumeInput } from "./consume-answer.ts";

/** preview-consume: the same decision, read without locks; it changes nothing and reserves nothing. */
async function preview(
  sql: Sql,
  tenantId: string,
  input: ConsumeInput,
  meters: EntitlementMeters,
  terms: MeterTerms,
) {
  const at = now();
  const amount = micros(input.amount);
  const { decision, period } = await decideOn(sql, "preview", tenantId, input, meters, terms, amount, at);
  return answer(input, terms, period, decision, amount, false, at);
}

/**
 * `limits` are counted before anything else happens: in the fast path's own statement, else in a
 * statement of their own first.
 */
async function decide(
  ctx: DomainContext,
  input: ConsumeInput,
  mode: "preview" | "commit",
  limits: PendingRateLimits,
) {
  const sql = sqlOf(ctx.db);
  for (let attempt = 0; attempt < 4; attempt++) {
    const meters = await entitlementMeters(ctx.db, ctx.tenantId, input.entitlementId, {
      refresh: attempt > 0,
    });
    const terms = meters?.meters.get(input.metricName);
    if (!meters || !terms || mode === "preview") await limits.enforce();
    if (!meters) throw noActiveSession();
    try {
      if (!terms) {
        await assertLiveSession(ctx, input);
        throw metricNotTracked(input.metricName);
      }
      if (mode === "preview") return await preview(sql, ctx.tenantId, input, meters, terms);
      const fast = await fastCommit(sql, ctx.tenantId, input, meters, terms, limits);
      if (fast) return fast;
      await limits.enforce();
      return await commitConsume(sql, ctx.tenantId, input, meters, terms);
    } catch (error) {
      if (!(error instanceof StaleTerms)) throw error;
    }
  }
  throw new AppError("license.conflict", "The license's metering terms kept changing; retry the request.");
}

const LIVE_SESSION: Statement = {
  name: "metering.live_session",
  text: `
SELECT (s."revokedAt" IS NULL AND s."graceExpiresAt" > $4 AND e.status = 'Published') IS TRUE AS live
FROM (SELECT 1) one
  LEFT JOIN "LicenseSession" s ON s."tenantId" = $1 AND s.id = $3 AND s."entitlementId" = $2
  LEFT JOIN "Entitlement" e ON e."tenantId" = $1 AND e.id = $2`,
};

/** A session call on a session that no longer exists answers 409 before anything else (docs/api.md). */
export async function assertLiveSession(
  ctx: DomainContext,
  input: { entitlementId: string; sessionId: string },
): Promise<void> {
  const [row] = await sqlOf(ctx.db).query<{ live: boolean }>(LIVE_SESSION, [
    ctx.tenantId,
    input.entitlementId,
    input.sessionId,
    now(),
  ]);
  if (!row.live) throw noActiveSession();
}

/**
 * POST /usage/consume/{sessionId}/{metric}: the binding decision on the entitlement's effective
 * feature value and tiers (docs/decisions.md "Metering"). An allowed consume is written to the
 * ledger with its charges in one transaction; a refusal writes nothing. 404
 * `license.metric_not_tracked` charges nothing; 409 `license.no_active_session` when the session
 * is gone.
 */
export const consumeMetric = (
  ctx: DomainContext,
  input: ConsumeInput,
  limits: PendingRateLimits = countedRateLimits,
) => decide(ctx, input, "commit", limits);

/** POST /usage/preview-consume/{sessionId}/{metric}: the same decision; changes nothing, reserves nothing. */
export const previewConsume = (ctx: DomainContext, input: Omit<ConsumeInput, "idempotencyKey">) =>
  decide(ctx, { ...input, idempotencyKey: null }, "preview", countedRateLimits);
