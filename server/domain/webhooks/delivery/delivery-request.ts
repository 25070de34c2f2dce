import { open } from "../../../crypto/secret-box.ts";
import { signatureHeader } from "../subscriptions/signing-secret.ts";

/** CloudEvents HTTP binding, structured content mode: the body is the whole envelope. */
export const DELIVERY_CONTENT_TYPE = "application/cloudevents+json; charset=utf-8";
export const DELIVERY_USER_AGENT = "licensing-webhooks/1";

type SecretHolder = {
  secretSealed: string | null;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
};

/** The secrets that sign right now: the current one, plus the previous one during a rotation overlap. */
export function liveSecrets(subscription: SecretHolder, at: Date): string[] {
  const secrets = subscription.secretSealed ? [open(subscription.secretSealed)] : [];
  if (
    subscription.previousSecretSealed &&
    subscription.previousSecretExpiresAt &&
    subscription.previousSecretExpiresAt > at
  ) {
    secrets.push(open(subscription.previousSecretSealed));
  }
  return secrets;
}

export type DeliveryHeaderInput = {
  envelopeId: string;
  eventType: string;
  tenantId: string;
  subscriptionId: string;
  attemptNumber: number;
  /** Send time, integer Unix seconds. */
  timestamp: number;
  body: string;
  secrets: readonly string[];
};

/** docs/api.md "Delivery headers" (without the callback token, which is added per attempt and never stored). */
export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  return {
    "content-type": DELIVERY_CONTENT_TYPE,
    "user-agent": DELIVERY_USER_AGENT,
    "webhook-id": input.envelopeId,
    "webhook-timestamp": String(input.timestamp),
    "webhook-signature": signatureHeader(input.secrets, input.envelopeId, input.timestamp, input.body),
    "webhook-event-type": input.eventType,
    "webhook-delivery-attempt": String(input.attemptNumber),
    "webhook-tenant": input.tenantId,
    "webhook-subscription": input.subscriptionId,
  };
}
