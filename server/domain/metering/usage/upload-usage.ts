import type { DomainContext } from "../../context.ts";
import { sqlOf } from "../../../db/sql.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { entitlementMeters } from "../meters/meter-terms.ts";
import { recordUsage, StaleUsageTerms, unresolvedUpload, type UsageUploader } from "./record-usage.ts";
import { withUploadSlot } from "./upload-gate.ts";
import { isNumericOverflow, meterLimitExceeded } from "./usage-ceiling.ts";
import { countedRateLimits, type PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import {
  MAX_USAGE_BATCH,
  type TUsageTransactionRecord,
  type TUsageUploadResponse,
} from "./usage-record.schemas.ts";

async function upload(
  ctx: DomainContext,
  entitlementId: string,
  uploader: UsageUploader,
  records: readonly TUsageTransactionRecord[],
  limits: PendingRateLimits,
): Promise<TUsageUploadResponse | null> {
  if (records.length > MAX_USAGE_BATCH) {
    await limits.enforce();
    throw new AppError(
      "usage.batch_too_large",
      `A batch holds at most ${MAX_USAGE_BATCH} records (this one has ${records.length}); split it.`,
    );
  }
  for (let attempt = 0; attempt < 4; attempt++) {
    const meters = await entitlementMeters(ctx.db, ctx.tenantId, entitlementId, { refresh: attempt > 0 });
    if (!meters) {
      await limits.enforce();
      return null;
    }
    try {
      return await recordUsage(sqlOf(ctx.db), ctx.tenantId, meters, uploader, records, limits);
    } catch (error) {
      // A counter would pass its column (usage-ceiling.ts): the statement or transaction rolled
      // back, the request's own count with it, so it is counted on its own.
      if (isNumericOverflow(error)) {
        await limits.enforce();
        throw meterLimitExceeded();
      }
      if (!(error instanceof StaleUsageTerms)) throw error;
    }
  }
  throw new AppError("license.conflict", "The license's metering terms kept changing; retry the upload.");
}

/**
 * POST /usage/sessions/{sessionId}/transactions (the session's license token): records a batch
 * against the session's license. A session that no longer exists answers 200 with
 * `entitlementResolved: false` and records nothing (docs/api.md "Other status behaviours"). The
 * request's rate limits are counted in the recording statement when they can be (record-usage.ts).
 */
export async function uploadSessionUsage(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string; records: readonly TUsageTransactionRecord[] },
  limits: PendingRateLimits = countedRateLimits,
): Promise<TUsageUploadResponse> {
  const uploader = { sessionId: input.sessionId, actor: ctx.actor };
  return (
    (await upload(ctx, input.entitlementId, uploader, input.records, limits)) ??
    unresolvedUpload(input.records)
  );
}

/**
 * POST /usage/entitlements/{entitlementId}/transactions (operational credential, no session):
 * the same recording, under bounded concurrency (upload-gate.ts: 503 with Retry-After when busy).
 */
export function uploadEntitlementUsage(
  ctx: DomainContext,
  entitlementId: string,
  records: readonly TUsageTransactionRecord[],
): Promise<TUsageUploadResponse> {
  return withUploadSlot(async () => {
    const answer = await upload(
      ctx,
      entitlementId,
      { sessionId: null, actor: ctx.actor },
      records,
      countedRateLimits,
    );
    if (!answer) throw notFound("Entitlement");
    return answer;
  });
}
