import { z } from "zod";
import { ZEnvelope } from "../events/envelope.ts";

/**
 * Delivery statuses: `pending` (waiting for its next attempt), `sending` (an attempt is in flight),
 * `succeeded`, `dead` (every retry failed, or its subscription stopped taking deliveries: a dead
 * letter, requeueable), `failed` (a one-shot registration challenge that failed) and `captured`
 * (recorded by a capture subscription; nothing is sent).
 */
export const deliveryStatuses = ["pending", "sending", "succeeded", "failed", "dead", "captured"] as const;
export const attemptStatuses = ["sending", "succeeded", "failed", "interrupted"] as const;

const ZAttemptBase = z.object({
  attemptNumber: z.number().int(),
  status: z.enum(attemptStatuses),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
});

/** Tenant-admin view: the receiver's response excerpt (≤ 2 KB) and the headers sent (never the callback token). */
export const ZDeliveryAttempt = ZAttemptBase.extend({
  responseExcerpt: z.string().nullable(),
  requestHeaders: z.record(z.string(), z.string()).nullable(),
});
/** docs/api.md: the integrator's delivery history omits the stored request body and the response excerpt. */
export const ZIntegratorDeliveryAttempt = ZAttemptBase;

export const ZDeliverySummary = z.object({
  id: z.string().uuid(),
  envelopeId: z.string().uuid(),
  subscriptionId: z.string().uuid(),
  eventType: z.string(),
  entityId: z.string(),
  status: z.enum(deliveryStatuses),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  isTest: z.boolean(),
  /** The original envelope of a replay; null otherwise. */
  replayOf: z.string().uuid().nullable(),
});
export type TDeliverySummary = z.infer<typeof ZDeliverySummary>;

export const ZDeliveryDetail = ZDeliverySummary.extend({
  /** The exact bytes sent (the envelope JSON). */
  requestBody: z.string(),
  envelope: ZEnvelope,
  attempts: z.array(ZDeliveryAttempt),
});
export type TDeliveryDetail = z.infer<typeof ZDeliveryDetail>;

export const ZIntegratorDeliveryDetail = ZDeliverySummary.extend({
  attempts: z.array(ZIntegratorDeliveryAttempt),
});
export type TIntegratorDeliveryDetail = z.infer<typeof ZIntegratorDeliveryDetail>;

export const ZDeliveryEnvelopeParams = z.object({ envelopeId: z.string().uuid() });
export const ZDeliveryIdParams = z.object({ deliveryId: z.string().uuid() });
export const ZDeliveryDetailQuery = z.object({ subscriptionId: z.string().uuid().optional() });

/** One event recorded by a capture subscription, for the capture viewer. */
export const ZCapturedEvent = z.object({
  deliveryId: z.string().uuid(),
  capturedAt: z.string(),
  envelope: ZEnvelope,
});
export type TCapturedEvent = z.infer<typeof ZCapturedEvent>;
