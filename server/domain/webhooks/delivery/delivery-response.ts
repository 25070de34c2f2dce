import type { WebhookDelivery, WebhookDeliveryAttempt } from "../../../db/generated/client.ts";
import { parseEnvelope } from "../events/envelope.ts";
import type { TDeliveryDetail, TDeliverySummary, TIntegratorDeliveryDetail } from "./delivery.schemas.ts";
import { iso } from "../../../core/iso-date.ts";

type DeliveryRow = WebhookDelivery & { envelope: { isTest: boolean; replayOfId: string | null } };
type DetailRow = WebhookDelivery & {
  envelope: { isTest: boolean; replayOfId: string | null; payload: string };
  attempts: WebhookDeliveryAttempt[];
};

/** Prisma `include` for a delivery summary. */
export const deliverySummaryInclude = { envelope: { select: { isTest: true, replayOfId: true } } } as const;
export const deliveryDetailInclude = {
  envelope: { select: { isTest: true, replayOfId: true, payload: true } },
  attempts: { orderBy: { attemptNumber: "asc" } },
} as const;

export function toDeliverySummary(row: DeliveryRow): TDeliverySummary {
  return {
    id: row.id,
    envelopeId: row.envelopeId,
    subscriptionId: row.subscriptionId,
    eventType: row.eventType,
    entityId: row.entityId,
    status: row.status as TDeliverySummary["status"],
    attemptCount: row.attemptCount,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastAttemptAt: iso(row.lastAttemptAt),
    lastResponseStatus: row.lastResponseStatus,
    lastError: row.lastError,
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    isTest: row.envelope.isTest,
    replayOf: row.envelope.replayOfId,
  };
}

function attemptBase(a: WebhookDeliveryAttempt) {
  return {
    attemptNumber: a.attemptNumber,
    status: a.status as TIntegratorDeliveryDetail["attempts"][number]["status"],
    startedAt: a.startedAt.toISOString(),
    finishedAt: iso(a.finishedAt),
    durationMs: a.durationMs,
    responseStatus: a.responseStatus,
    error: a.error,
  };
}

/** Tenant-admin view: with the bytes sent, the envelope, each attempt's response excerpt and headers. */
export function toDeliveryDetail(row: DetailRow): TDeliveryDetail {
  return {
    ...toDeliverySummary(row),
    requestBody: row.envelope.payload,
    envelope: parseEnvelope(row.envelope.payload),
    attempts: row.attempts.map((a) => ({
      ...attemptBase(a),
      responseExcerpt: a.responseExcerpt,
      requestHeaders: (a.requestHeaders as Record<string, string> | null) ?? null,
    })),
  };
}

/** docs/api.md: the integrator's history omits the stored request body and the receiver's response excerpt. */
export function toIntegratorDeliveryDetail(row: DetailRow): TIntegratorDeliveryDetail {
  return { ...toDeliverySummary(row), attempts: row.attempts.map(attemptBase) };
}
