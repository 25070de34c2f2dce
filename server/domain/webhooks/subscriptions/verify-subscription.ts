import { randomBytes } from "node:crypto";
import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { deliveryHeaders, liveSecrets } from "../delivery/delivery-request.ts";
import { prepareEnvelope, storeEnvelope } from "../events/emit-event.ts";
import { serializeEnvelope } from "../events/envelope.ts";
import { REGISTRATION_CHALLENGE } from "../events/event-types.ts";
import { sendWebhookRequest, type SendResult } from "../delivery/send-webhook.ts";
import {
  allowPrivateReceiverUrls,
  CHALLENGE_RESPONSE_BYTES,
  DELIVERY_TIMEOUT_MS,
  RESPONSE_EXCERPT_BYTES,
} from "../delivery/settings.ts";
import { spendOnDemandSend } from "./on-demand-send-limit.ts";
import { signatureMatches } from "./signing-secret.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import { transition } from "./subscription-states.ts";
import type { TSubscriptionState } from "./subscription.schemas.ts";

/**
 * docs/api.md "Subscriptions": POSTs a one-time `Webhooks.Registration.Challenge` (random `data.challenge`),
 * synchronously, with the delivery timeout. The subscription becomes Active only when the receiver
 * answers 2xx with a JSON object echoing `challenge` and a `webhook-signature` response header over
 * `{webhook-id}.{webhook-timestamp}.{response body}` made with the subscription secret (during a
 * rotation overlap, either secret). Subscriptions created through the integrator API verify with
 * any 2xx. The attempt is recorded as a one-shot delivery (`succeeded` or `failed`, never retried)
 * and the outcome in `lastVerificationAt`/`lastVerificationError`. Capture: succeeds, does nothing.
 */
export async function verifySubscription(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  options: { send?: typeof sendWebhookRequest } = {},
) {
  const subscription = await findSubscription(ctx, access, id);
  if (subscription.targetKind === "Capture") return toSubscriptionResponse(subscription);
  const snapshot = {
    state: subscription.state as TSubscriptionState,
    resumeState: subscription.resumeState as TSubscriptionState | null,
  };
  transition(snapshot, "verified"); // 409 while Suspended, before anything is sent
  // Each verification holds a web request for up to the delivery timeout: counted before it is sent.
  await spendOnDemandSend(ctx, subscription.id);

  const challenge = randomBytes(24).toString("base64url");
  const envelope = prepareEnvelope({
    tenantId: ctx.tenantId,
    type: REGISTRATION_CHALLENGE,
    entityKind: "subscription",
    entityId: subscription.id,
    subject: `subscriptions/${subscription.id}`,
    data: { challenge },
  });
  const body = serializeEnvelope(envelope);
  const sentAt = now();
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const secrets = liveSecrets(subscription, sentAt);
  const headers = deliveryHeaders({
    envelopeId: envelope.id,
    eventType: REGISTRATION_CHALLENGE,
    tenantId: ctx.tenantId,
    subscriptionId: subscription.id,
    attemptNumber: 1,
    timestamp,
    body,
    secrets,
  });
  const result = await (options.send ?? sendWebhookRequest)(subscription.url!, headers, body, {
    timeoutMs: DELIVERY_TIMEOUT_MS,
    allowPrivate: allowPrivateReceiverUrls(),
    maxBodyBytes: CHALLENGE_RESPONSE_BYTES,
  });
  const failure =
    result.ok && subscription.createdVia === "integrator"
      ? null
      : challengeFailure(result, challenge, { webhookId: envelope.id, timestamp, secrets });

  const finishedAt = now();
  await inTransaction(ctx.db, async (tx) => {
    await storeEnvelope(tx, envelope, {
      tenantId: ctx.tenantId,
      targetSubscriptionId: subscription.id,
      fanOut: false,
    });
    const delivery = await tx.webhookDelivery.create({
      data: {
        tenantId: ctx.tenantId,
        envelopeId: envelope.id,
        subscriptionId: subscription.id,
        eventType: REGISTRATION_CHALLENGE,
        entityId: subscription.id,
        status: failure ? "failed" : "succeeded",
        attemptCount: 1,
        lastAttemptAt: sentAt,
        lastResponseStatus: result.status,
        lastError: failure,
        completedAt: finishedAt,
        createdAt: sentAt,
      },
    });
    await tx.webhookDeliveryAttempt.create({
      data: {
        tenantId: ctx.tenantId,
        deliveryId: delivery.id,
        attemptNumber: 1,
        status: failure ? "failed" : "succeeded",
        startedAt: sentAt,
        finishedAt,
        durationMs: result.durationMs,
        responseStatus: result.status,
        responseExcerpt: result.body ? result.body.slice(0, RESPONSE_EXCERPT_BYTES) : null,
        error: failure,
        requestHeaders: headers,
      },
    });
    const next = failure ? snapshot : transition(snapshot, "verified");
    await tx.webhookSubscription.updateMany({
      // A PATCH of the URL meanwhile makes this answer stale: it then changes nothing.
      where: { id, url: subscription.url, state: subscription.state },
      data: { ...next, lastVerificationAt: finishedAt, lastVerificationError: failure },
    });
  });
  return toSubscriptionResponse(await ctx.db.webhookSubscription.findUniqueOrThrow({ where: { id } }));
}

/** Why a challenge answer does not verify, or null when it does. */
function challengeFailure(
  result: SendResult,
  challenge: string,
  request: { webhookId: string; timestamp: number; secrets: string[] },
): string | null {
  if (!result.ok) return `The receiver did not answer 2xx: ${result.error ?? `HTTP ${result.status}`}.`;
  let echoed: unknown;
  try {
    echoed = (JSON.parse(result.body) as { challenge?: unknown } | null)?.challenge;
  } catch {
    return "The answer is not a JSON object echoing the challenge.";
  }
  if (echoed !== challenge) return "The answer's challenge does not echo the one sent.";
  const signature = result.headers["webhook-signature"];
  const header = Array.isArray(signature) ? signature.join(" ") : signature;
  if (!header) return "The answer has no webhook-signature header.";
  if (!signatureMatches(request.secrets, request.webhookId, request.timestamp, result.body, header)) {
    return "The answer's webhook-signature does not verify: sign {webhook-id}.{webhook-timestamp}.{response body} with the subscription secret, using the request's id and timestamp.";
  }
  return null;
}
