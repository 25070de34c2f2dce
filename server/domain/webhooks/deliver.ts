import type { Db } from "../../db/client.ts";
import { joinable, tenantDb, type TenantDb } from "../../db/tenant-db.ts";
import { now } from "../../clock.ts";
import { issueCallbackToken } from "./callback-scopes.ts";
import { enqueueDelivery } from "./delivery-jobs.ts";
import { deliveryHeaders, liveSecrets } from "./delivery-request.ts";
import { retryDelayMs } from "./retry-schedule.ts";
import { sendWebhookRequest, type SendResult } from "./send-webhook.ts";
import { allowPrivateReceiverUrls, DELIVERY_LEASE_MS, DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from "./settings.ts";
import { takesDeliveries } from "./subscription-states.ts";

export type DeliverOutcome = "succeeded" | "retrying" | "dead" | "not_due" | "skipped";
export type DeliverOptions = { clock?: () => Date; send?: typeof sendWebhookRequest };

/** A job may run up to this early (clock skew between worker and database). */
const DUE_TOLERANCE_MS = 1_000;

/**
 * One attempt of one delivery (the `webhook_deliver` job). Claims the row (pending → sending,
 * attempt counter +1, a lease), sends without holding a transaction, then records the attempt and
 * either completes the delivery, schedules the next attempt (with its job, in one transaction) or
 * dead-letters it. A worker that dies mid-attempt leaves the row `sending` until its lease ends;
 * the sweeper then makes it pending again, so nothing is lost (at-least-once).
 */
export async function deliverOnce(base: Db, tenantId: string, deliveryId: string, options: DeliverOptions = {}): Promise<DeliverOutcome> {
  const clock = options.clock ?? now;
  const db = tenantDb(base, tenantId);
  const claimedAt = clock();
  const claimed = (await claimDirectly(base, tenantId, deliveryId, claimedAt)) ?? (await claim(db, tenantId, deliveryId, claimedAt));
  if (claimed.outcome) return claimed.outcome;
  const { delivery, subscription, payload, attemptNumber } = claimed;

  const sentAt = clock();
  const headers = deliveryHeaders({
    envelopeId: delivery.envelopeId,
    eventType: delivery.eventType,
    tenantId,
    subscriptionId: subscription.id,
    attemptNumber,
    timestamp: Math.floor(sentAt.getTime() / 1000),
    body: payload,
    secrets: liveSecrets(subscription, sentAt),
  });
  const callbackToken = subscription.callbackScopes.length ? await issueCallbackToken(base, subscription) : null;
  const result = await (options.send ?? sendWebhookRequest)(
    subscription.url!,
    callbackToken ? { ...headers, "webhook-callback-token": callbackToken } : headers,
    payload,
    { timeoutMs: DELIVERY_TIMEOUT_MS, allowPrivate: allowPrivateReceiverUrls(), maxBodyBytes: RESPONSE_EXCERPT_BYTES },
  );
  const finishedAt = clock();
  if (result.ok && (await recordSuccess(base, tenantId, delivery.id, attemptNumber, headers, result, finishedAt))) return "succeeded";
  return record(db, tenantId, { ...delivery, attemptNumber }, headers, result, finishedAt);
}

type Claimed = {
  outcome?: undefined;
  delivery: { id: string; envelopeId: string; eventType: string; scheduleOffset: number };
  subscription: { id: string; tenantId: string; url: string | null; callbackScopes: string[]; secretSealed: string | null; previousSecretSealed: string | null; previousSecretExpiresAt: Date | null };
  payload: string;
  attemptNumber: number;
};

/**
 * The common case in one statement (a round trip, no interactive transaction): a due pending
 * delivery of an Active Http subscription is claimed and its attempt row written. Anything else
 * (not due, deliveries off, already taken) returns null and goes through `claim`, which decides.
 */
async function claimDirectly(base: Db, tenantId: string, deliveryId: string, at: Date): Promise<Claimed | null> {
  const rows = await base.$queryRaw<(Claimed["delivery"] & Omit<Claimed["subscription"], "id" | "tenantId"> & { subscriptionId: string; attemptCount: number; payload: string })[]>`
    WITH claimed AS (
      UPDATE "WebhookDelivery" AS d
      SET status = 'sending', "attemptCount" = d."attemptCount" + 1, "leaseExpiresAt" = ${new Date(at.getTime() + DELIVERY_LEASE_MS)},
          "lastAttemptAt" = ${at}, "nextAttemptAt" = NULL, "updatedAt" = ${at}
      FROM "WebhookSubscription" AS s
      WHERE d.id = ${deliveryId}::uuid AND d."tenantId" = ${tenantId}::uuid AND d.status = 'pending'
        AND (d."nextAttemptAt" IS NULL OR d."nextAttemptAt" <= ${new Date(at.getTime() + DUE_TOLERANCE_MS)})
        AND s.id = d."subscriptionId" AND s."tenantId" = d."tenantId" AND s.state = 'Active' AND s."targetKind" = 'Http' AND s.url IS NOT NULL
      RETURNING d.id, d."envelopeId", d."eventType", d."scheduleOffset", d."attemptCount", s.id AS "subscriptionId", s.url, s."callbackScopes",
                s."secretSealed", s."previousSecretSealed", s."previousSecretExpiresAt"
    ), attempt AS (
      INSERT INTO "WebhookDeliveryAttempt" (id, "tenantId", "deliveryId", "attemptNumber", status, "startedAt")
      SELECT gen_random_uuid(), ${tenantId}::uuid, c.id, c."attemptCount", 'sending', ${at} FROM claimed c
    )
    SELECT c.id::text AS id, c."envelopeId"::text AS "envelopeId", c."eventType", c."scheduleOffset", c."attemptCount",
           c."subscriptionId"::text AS "subscriptionId", c.url, c."callbackScopes", c."secretSealed", c."previousSecretSealed",
           c."previousSecretExpiresAt", e.payload
    FROM claimed c JOIN "WebhookEnvelope" e ON e.id = c."envelopeId" AND e."tenantId" = ${tenantId}::uuid`;
  const row = rows[0];
  if (!row) return null;
  return {
    delivery: { id: row.id, envelopeId: row.envelopeId, eventType: row.eventType, scheduleOffset: row.scheduleOffset },
    subscription: {
      id: row.subscriptionId, tenantId, url: row.url, callbackScopes: row.callbackScopes,
      secretSealed: row.secretSealed, previousSecretSealed: row.previousSecretSealed, previousSecretExpiresAt: row.previousSecretExpiresAt,
    },
    payload: row.payload,
    attemptNumber: row.attemptCount,
  };
}

/** A 2xx, recorded in one statement; false when the claim was lost meanwhile (then `record` decides). */
async function recordSuccess(base: Db, tenantId: string, deliveryId: string, attemptNumber: number, headers: Record<string, string>, result: SendResult, at: Date): Promise<boolean> {
  const updated = await base.$executeRaw`
    WITH attempt AS (
      UPDATE "WebhookDeliveryAttempt"
      SET status = 'succeeded', "finishedAt" = ${at}, "durationMs" = ${result.durationMs}, "responseStatus" = ${result.status},
          "responseExcerpt" = ${result.body || null}, error = NULL, "requestHeaders" = ${JSON.stringify(headers)}::jsonb
      WHERE "tenantId" = ${tenantId}::uuid AND "deliveryId" = ${deliveryId}::uuid AND "attemptNumber" = ${attemptNumber}
    )
    UPDATE "WebhookDelivery"
    SET status = 'succeeded', "completedAt" = ${at}, "leaseExpiresAt" = NULL, "lastResponseStatus" = ${result.status}, "lastError" = NULL, "updatedAt" = ${at}
    WHERE id = ${deliveryId}::uuid AND "tenantId" = ${tenantId}::uuid AND status = 'sending' AND "attemptCount" = ${attemptNumber}`;
  return updated === 1;
}

async function claim(db: TenantDb, tenantId: string, deliveryId: string, at: Date): Promise<Claimed | { outcome: DeliverOutcome }> {
  return db.$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
    const delivery = await tx.webhookDelivery.findUnique({
      where: { id: deliveryId },
      include: { subscription: true, envelope: { select: { payload: true } } },
    });
    if (!delivery || delivery.status !== "pending") return { outcome: "skipped" as const };
    if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > at.getTime() + DUE_TOLERANCE_MS) {
      await enqueueDelivery(tx, tenantId, deliveryId, delivery.nextAttemptAt);
      return { outcome: "not_due" as const };
    }
    const { subscription } = delivery;
    if (!takesDeliveries(subscription.state) || subscription.targetKind !== "Http" || !subscription.url) {
      // Deliveries are off: the delivery becomes a dead letter, requeueable once the subscription is Active.
      await tx.webhookDelivery.updateMany({
        where: { id: deliveryId, status: "pending" },
        data: { status: "dead", completedAt: at, nextAttemptAt: null, lastError: `The subscription was ${subscription.state} when the attempt was due.` },
      });
      return { outcome: "dead" as const };
    }
    const attemptNumber = delivery.attemptCount + 1;
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: "pending", attemptCount: delivery.attemptCount },
      data: { status: "sending", attemptCount: attemptNumber, leaseExpiresAt: new Date(at.getTime() + DELIVERY_LEASE_MS), lastAttemptAt: at, nextAttemptAt: null },
    });
    if (count === 0) return { outcome: "skipped" as const };
    await tx.webhookDeliveryAttempt.create({ data: { tenantId, deliveryId, attemptNumber, status: "sending", startedAt: at } });
    return { delivery, subscription, payload: delivery.envelope.payload, attemptNumber };
  });
}

async function record(
  db: TenantDb,
  tenantId: string,
  delivery: { id: string; attemptNumber: number; scheduleOffset: number },
  headers: Record<string, string>,
  result: SendResult,
  at: Date,
): Promise<DeliverOutcome> {
  return db.$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
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
    // Only the attempt that still holds the claim moves the delivery (the sweeper may have taken it back).
    const held = { id: delivery.id, status: "sending", attemptCount: delivery.attemptNumber };
    const common = { leaseExpiresAt: null, lastResponseStatus: result.status, lastError: result.error };
    if (result.ok) {
      await tx.webhookDelivery.updateMany({ where: held, data: { ...common, status: "succeeded", completedAt: at } });
      return "succeeded" as const;
    }
    const delay = retryDelayMs(delivery.attemptNumber - delivery.scheduleOffset);
    if (delay === null) {
      await tx.webhookDelivery.updateMany({ where: held, data: { ...common, status: "dead", completedAt: at } });
      return "dead" as const;
    }
    const nextAttemptAt = new Date(at.getTime() + delay);
    const { count } = await tx.webhookDelivery.updateMany({ where: held, data: { ...common, status: "pending", nextAttemptAt } });
    if (count === 1) await enqueueDelivery(tx, tenantId, delivery.id, nextAttemptAt);
    return "retrying" as const;
  });
}
