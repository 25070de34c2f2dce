import type { Sql } from "../../../db/sql.ts";
import type { Db } from "../../../db/client.ts";
import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { issueCallbackToken } from "../subscriptions/callback-scopes.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";
import { deliveryHeaders, liveSecrets } from "./delivery-request.ts";
import { retryDelayMs } from "./retry-schedule.ts";
import { sendWebhookRequest, type SendResult } from "./send-webhook.ts";
import { allowPrivateReceiverUrls, DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from "./settings.ts";

export type DeliverOutcome = "succeeded" | "retrying" | "dead";
export type DeliverOptions = {
  /** The process client: the platform key that signs callback tokens is not a tenant's. */
  base: Db;
  clock?: () => Date;
  send?: typeof sendWebhookRequest;
};

/** One attempt's result, to be recorded (a 2xx in a batch, anything else by `recordAttempt`). */
export type AttemptResult = {
  delivery: ClaimedDelivery;
  headers: Record<string, string>;
  result: SendResult;
  finishedAt: Date;
};

/**
 * Sends one claimed attempt of a delivery of the context's tenant: the stored envelope bytes,
 * signed with the live secrets, with a fresh callback token when the subscription has callback
 * scopes, outside any transaction. The retry schedule, the 15 s timeout and the address checks at
 * connect time (DNS rebinding) are the send's; recording is the caller's.
 */
export async function attemptDelivery(
  ctx: DomainContext,
  delivery: ClaimedDelivery,
  options: DeliverOptions,
): Promise<AttemptResult> {
  const clock = options.clock ?? now;
  const { subscription } = delivery;
  const sentAt = clock();
  const headers = deliveryHeaders({
    envelopeId: delivery.envelopeId,
    eventType: delivery.eventType,
    tenantId: ctx.tenantId,
    subscriptionId: subscription.id,
    attemptNumber: delivery.attemptNumber,
    timestamp: Math.floor(sentAt.getTime() / 1000),
    body: delivery.payload,
    secrets: liveSecrets(subscription, sentAt),
  });
  const callbackToken = subscription.callbackScopes.length
    ? await issueCallbackToken(options.base, subscription)
    : null;
  const result = await (options.send ?? sendWebhookRequest)(
    subscription.url,
    callbackToken ? { ...headers, "webhook-callback-token": callbackToken } : headers,
    delivery.payload,
    {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      allowPrivate: allowPrivateReceiverUrls(),
      maxBodyBytes: RESPONSE_EXCERPT_BYTES,
    },
  );
  return { delivery, headers, result, finishedAt: clock() };
}

const RECORD_SUCCESSES_SQL = `
WITH r AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::text[], $7::jsonb[], $8::timestamptz[])
    AS r(id, "tenantId", "attemptNumber", "responseStatus", "durationMs", excerpt, headers, at)
), attempts AS (
  UPDATE "WebhookDeliveryAttempt" AS a
  SET status = 'succeeded', "finishedAt" = r.at, "durationMs" = r."durationMs", "responseStatus" = r."responseStatus",
      "responseExcerpt" = r.excerpt, error = NULL, "requestHeaders" = r.headers
  FROM r WHERE a."tenantId" = r."tenantId" AND a."deliveryId" = r.id AND a."attemptNumber" = r."attemptNumber"
)
UPDATE "WebhookDelivery" AS d
SET status = 'succeeded', "completedAt" = r.at, "leaseExpiresAt" = NULL, "lastResponseStatus" = r."responseStatus",
    "lastError" = NULL, "updatedAt" = r.at
FROM r
WHERE d.id = r.id AND d."tenantId" = r."tenantId" AND d.status = 'sending' AND d."attemptCount" = r."attemptNumber"
RETURNING d.id::text AS id`;

/**
 * Records many 2xx attempts (of any tenants: the pump's batch) in one statement. An attempt whose
 * claim was lost meanwhile (the sweeper took it back) gets its attempt row recorded; its delivery
 * is left to whoever holds it now.
 */
export async function recordSucceededAttempts(sql: Sql, results: AttemptResult[]): Promise<void> {
  if (results.length === 0) return;
  await sql.query({ name: "webhooks.record-successes", text: RECORD_SUCCESSES_SQL }, [
    results.map((r) => r.delivery.id),
    results.map((r) => r.delivery.tenantId),
    results.map((r) => r.delivery.attemptNumber),
    results.map((r) => r.result.status),
    results.map((r) => r.result.durationMs),
    results.map((r) => r.result.body || null),
    results.map((r) => JSON.stringify(r.headers)),
    results.map((r) => r.finishedAt),
  ]);
}

/**
 * Records one attempt of a delivery of the context's tenant and moves the delivery: succeeded,
 * pending again at its next retry time, or dead after the last attempt of its schedule (docs/architecture.md
 * section 7). Only the attempt that still holds the claim moves the delivery.
 */
export async function recordAttempt(ctx: DomainContext, attempt: AttemptResult): Promise<DeliverOutcome> {
  const { delivery, headers, result, finishedAt: at } = attempt;
  return inTransaction(ctx.db, async (tx) => {
    await tx.webhookDeliveryAttempt.updateMany({
      where: { deliveryId: delivery.id, attemptNumber: delivery.attemptNumber },
      data: {
        status: result.ok ? "succeeded" : "failed",
        finishedAt: at,
        durationMs: result.durationMs,
        responseStatus: result.status,
        responseExcerpt: result.body || null,
        error: result.error,
        requestHeaders: headers,
      },
    });
    const held = { id: delivery.id, status: "sending", attemptCount: delivery.attemptNumber };
    const common = { leaseExpiresAt: null, lastResponseStatus: result.status, lastError: result.error };
    if (result.ok) {
      await tx.webhookDelivery.updateMany({
        where: held,
        data: { ...common, status: "succeeded", completedAt: at },
      });
      return "succeeded" as const;
    }
    const delay = retryDelayMs(delivery.attemptNumber - delivery.scheduleOffset);
    if (delay === null) {
      await tx.webhookDelivery.updateMany({
        where: held,
        data: { ...common, status: "dead", completedAt: at },
      });
      return "dead" as const;
    }
    await tx.webhookDelivery.updateMany({
      where: held,
      data: { ...common, status: "pending", nextAttemptAt: new Date(at.getTime() + delay) },
    });
    return "retrying" as const;
  });
}

/** When a failed attempt's delivery comes due again (for the pump's own wake-up timer). */
export function nextAttemptAfter(attempt: AttemptResult): Date | null {
  const delay = retryDelayMs(attempt.delivery.attemptNumber - attempt.delivery.scheduleOffset);
  return delay === null ? null : new Date(attempt.finishedAt.getTime() + delay);
}
