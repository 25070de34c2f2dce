import type {
  TSubscriptionFilters,
  TSubscriptionResponse,
  TSubscriptionState,
} from "./subscription.schemas.ts";
import type { WebhookSubscription } from "../../../db/generated/client.ts";
import { now } from "../../../clock.ts";

export function toSubscriptionResponse(row: WebhookSubscription): TSubscriptionResponse {
  const overlapOpen =
    row.previousSecretExpiresAt && row.previousSecretSealed && row.previousSecretExpiresAt > now();
  return {
    id: row.id,
    targetKind: row.targetKind as TSubscriptionResponse["targetKind"],
    url: row.url,
    displayName: row.displayName,
    eventTypePatterns: row.eventTypePatterns,
    filters: (row.filters as TSubscriptionFilters | null) ?? null,
    callbackScopes: row.callbackScopes,
    state: row.state as TSubscriptionState,
    createdVia: row.createdVia as TSubscriptionResponse["createdVia"],
    previousSecretExpiresAt: overlapOpen ? row.previousSecretExpiresAt!.toISOString() : null,
    secretRotatedAt: row.secretRotatedAt?.toISOString() ?? null,
    lastVerificationAt: row.lastVerificationAt?.toISOString() ?? null,
    lastVerificationError: row.lastVerificationError,
    stateReason: row.stateReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
  };
}
