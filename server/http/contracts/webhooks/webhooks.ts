import { z } from "zod";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { anonymous, clientScope, integrator, type AuthRequirement } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import type { CodeName } from "../../../core/errors.ts";
import {
  ZReplayRequest,
  ZReplayResponse,
  ZSecretRotationRequest,
  ZSubscriptionCreateRequest,
  ZSubscriptionIdParams,
  ZSubscriptionListQuery,
  ZSubscriptionResponse,
  ZSubscriptionUpdateRequest,
  ZSubscriptionWithSecretResponse,
  ZTestFirePreviewQuery,
  ZTestFireRequest,
  ZTestFireResponse,
} from "../../../domain/webhooks/subscriptions/subscription.schemas.ts";
import {
  ZCapturedEvent,
  ZDeliveryDetail,
  ZDeliveryDetailQuery,
  ZDeliveryEnvelopeParams,
  ZDeliveryIdParams,
  ZDeliverySummary,
  ZIntegratorDeliveryDetail,
} from "../../../domain/webhooks/delivery/delivery.schemas.ts";
import { ZEnvelope } from "../../../domain/webhooks/events/envelope.ts";
import {
  ZCallbackScopeAllowanceRequest,
  ZCallbackScopeAllowanceResponse,
  ZIntegratorClientParams,
} from "../../../domain/webhooks/subscriptions/callback-scope-allowance.ts";
import { ZEventSchemasQuery, ZEventTypeSchema } from "../../../domain/webhooks/events/list-event-schemas.ts";

const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const subscriptionProblems: CodeName[] = [
  "license.validation_error",
  "subscription.not_applicable",
  "subscription.invalid_url",
  "subscription.invalid_filter",
  "subscription.invalid_event_type",
  "subscription.invalid_callback_scope",
  "subscription.callback_scope_not_granted",
  "idempotency.key_reused",
];

/** The subscription endpoints both surfaces share (docs/api.md "Webhook endpoints"; docs/architecture.md section 8). */
/** `auth` checks by HTTP verb; `toggle` guards the POST sub-resources (docs/architecture.md section 5: they need `update`). */
function subscriptionContracts(base: string, tag: string, auth: AuthRequirement, toggle: AuthRequirement) {
  const one = `${base}/{id}`;
  return {
    list: defineContract({
      method: "GET",
      path: base,
      tag,
      summary: "List subscriptions (paged; optionally filtered by state)",
      auth,
      query: ZListQuery.extend(ZSubscriptionListQuery.shape),
      response: ZPage(ZSubscriptionResponse),
      errors: [...common, "license.validation_error"],
    }),
    create: defineContract({
      method: "POST",
      path: base,
      tag,
      summary:
        "Register a subscription (Http starts PendingVerification; the signing secret is answered once)",
      auth,
      body: ZSubscriptionCreateRequest,
      response: ZSubscriptionWithSecretResponse,
      status: 201,
      errors: [...common, ...subscriptionProblems, "subscription.invalid_secret"],
    }),
    get: defineContract({
      method: "GET",
      path: one,
      tag,
      summary: "Read a subscription",
      auth,
      params: ZSubscriptionIdParams,
      response: ZSubscriptionResponse,
      errors: [...common, "license.not_found"],
    }),
    update: defineContract({
      method: "PATCH",
      path: one,
      tag,
      summary:
        "Change URL, display name, event-type patterns, filters or callback scopes (merge-PATCH; a new URL needs verifying)",
      auth,
      params: ZSubscriptionIdParams,
      body: ZSubscriptionUpdateRequest,
      response: ZSubscriptionResponse,
      errors: [...common, ...subscriptionProblems, "license.not_found", "concurrency.revision_mismatch"],
    }),
    delete: defineContract({
      method: "DELETE",
      path: one,
      tag,
      summary: "Remove the subscription and its pending deliveries",
      auth,
      params: ZSubscriptionIdParams,
      status: 204,
      errors: [...common, "license.not_found"],
    }),
    verify: defineContract({
      method: "POST",
      path: `${one}/verify`,
      tag,
      summary:
        "Send the registration challenge now and answer the resulting subscription (with test-fires, 10 per minute per subscription)",
      auth: toggle,
      params: ZSubscriptionIdParams,
      response: ZSubscriptionResponse,
      errors: [
        ...common,
        "license.not_found",
        "subscription.invalid_state",
        "subscription.send_rate_limited",
        "idempotency.key_reused",
      ],
    }),
    enable: defineContract({
      method: "POST",
      path: `${one}/enable`,
      tag,
      summary: "Deliveries on (409 while PendingVerification)",
      auth: toggle,
      params: ZSubscriptionIdParams,
      response: ZSubscriptionResponse,
      errors: [
        ...common,
        "license.not_found",
        "subscription.invalid_state",
        "concurrency.revision_mismatch",
        "idempotency.key_reused",
      ],
    }),
    disable: defineContract({
      method: "POST",
      path: `${one}/disable`,
      tag,
      summary: "Deliveries off (409 while PendingVerification)",
      auth: toggle,
      params: ZSubscriptionIdParams,
      response: ZSubscriptionResponse,
      errors: [
        ...common,
        "license.not_found",
        "subscription.invalid_state",
        "concurrency.revision_mismatch",
        "idempotency.key_reused",
      ],
    }),
    rotateSecret: defineContract({
      method: "POST",
      path: `${one}/secret`,
      tag,
      summary:
        "Rotate the signing secret; the previous one keeps signing during the overlap window (default 24 h)",
      auth: toggle,
      params: ZSubscriptionIdParams,
      body: ZSecretRotationRequest,
      response: ZSubscriptionWithSecretResponse,
      errors: [
        ...common,
        "license.validation_error",
        "license.not_found",
        "subscription.not_applicable",
        "subscription.invalid_secret",
        "idempotency.key_reused",
      ],
    }),
    testFire: defineContract({
      method: "POST",
      path: `${one}/test-fire`,
      tag,
      summary:
        "Send one sample event (data carries _test: true) through the full pipeline (with verifications, 10 per minute per subscription)",
      auth: toggle,
      params: ZSubscriptionIdParams,
      body: ZTestFireRequest,
      response: ZTestFireResponse,
      status: 202,
      errors: [
        ...common,
        "license.validation_error",
        "license.not_found",
        "subscription.invalid_state",
        "subscription.invalid_event_type",
        "subscription.send_rate_limited",
        "idempotency.key_reused",
      ],
    }),
    testFirePreview: defineContract({
      method: "GET",
      path: `${one}/test-fire/preview`,
      tag,
      summary: "The exact envelope a test-fire would send (id and time are fresh at send); enqueues nothing",
      auth,
      params: ZSubscriptionIdParams,
      query: ZTestFirePreviewQuery,
      response: ZEnvelope,
      errors: [...common, "license.validation_error", "license.not_found", "subscription.invalid_event_type"],
    }),
    replay: defineContract({
      method: "POST",
      path: `${one}/replay`,
      tag,
      summary:
        "Re-send past envelopes of this subscription as fresh envelopes naming the original (replayof)",
      auth: toggle,
      params: ZSubscriptionIdParams,
      body: ZReplayRequest,
      response: ZReplayResponse,
      status: 202,
      errors: [
        ...common,
        "license.validation_error",
        "license.not_found",
        "replay.invalid_selection",
        "replay.rate_limited",
        "subscription.invalid_state",
        "idempotency.key_reused",
      ],
    }),
  };
}

// --- Event-type catalog (anonymous) -------------------------------------------------------------

export const listEventSchemasContract = defineContract({
  method: "GET",
  path: "/api/v1/webhooks/schemas",
  tag: "Webhooks",
  summary:
    "Every event type: data JSON Schema, entity kind, eventversion, filterable fields, sample envelope",
  auth: anonymous,
  query: ZEventSchemasQuery,
  response: ZPage(ZEventTypeSchema),
  errors: ["license.validation_error"],
});

// --- Integrator surface (scope webhooks.integrator; own subscriptions only) ----------------------

const integratorBase = "/api/v1/webhooks/integrator";
const integratorTag = "Webhooks (integrator)";
const integratorSubscriptions = subscriptionContracts(
  `${integratorBase}/subscriptions`,
  integratorTag,
  integrator,
  integrator,
);

export const integratorListSubscriptionsContract = integratorSubscriptions.list;
export const integratorCreateSubscriptionContract = integratorSubscriptions.create;
export const integratorGetSubscriptionContract = integratorSubscriptions.get;
export const integratorUpdateSubscriptionContract = integratorSubscriptions.update;
export const integratorDeleteSubscriptionContract = integratorSubscriptions.delete;
export const integratorVerifySubscriptionContract = integratorSubscriptions.verify;
export const integratorEnableSubscriptionContract = integratorSubscriptions.enable;
export const integratorDisableSubscriptionContract = integratorSubscriptions.disable;
export const integratorRotateSecretContract = integratorSubscriptions.rotateSecret;
export const integratorTestFireContract = integratorSubscriptions.testFire;
export const integratorTestFirePreviewContract = integratorSubscriptions.testFirePreview;
export const integratorReplayContract = integratorSubscriptions.replay;

export const integratorListDeliveriesContract = defineContract({
  method: "GET",
  path: `${integratorBase}/deliveries`,
  tag: integratorTag,
  summary: "Delivery history across the credential's subscriptions",
  auth: integrator,
  query: ZListQuery,
  response: ZPage(ZDeliverySummary),
  errors: [...common, "license.validation_error"],
});

export const integratorGetDeliveryContract = defineContract({
  method: "GET",
  path: `${integratorBase}/deliveries/{envelopeId}`,
  tag: integratorTag,
  summary:
    "One delivery with every attempt (without request body or response excerpt); subscriptionId when the envelope reached several",
  auth: integrator,
  params: ZDeliveryEnvelopeParams,
  query: ZDeliveryDetailQuery,
  response: ZIntegratorDeliveryDetail,
  errors: [...common, "license.validation_error", "license.not_found", "delivery.ambiguous_envelope"],
});

// --- Tenant-admin surface (scope provision.webhook.*) --------------------------------------------

const adminBase = "/api/v1/webhooks";
const adminTag = "Webhooks (tenant admin)";
const webhookScope = clientScope("webhook");
const webhookToggle = clientScope("webhook", "update");
const adminSubscriptions = subscriptionContracts(
  `${adminBase}/subscriptions`,
  adminTag,
  webhookScope,
  webhookToggle,
);

export const adminListSubscriptionsContract = adminSubscriptions.list;
export const adminCreateSubscriptionContract = adminSubscriptions.create;
export const adminGetSubscriptionContract = adminSubscriptions.get;
export const adminUpdateSubscriptionContract = adminSubscriptions.update;
export const adminDeleteSubscriptionContract = adminSubscriptions.delete;
export const adminVerifySubscriptionContract = adminSubscriptions.verify;
export const adminEnableSubscriptionContract = adminSubscriptions.enable;
export const adminDisableSubscriptionContract = adminSubscriptions.disable;
export const adminRotateSecretContract = adminSubscriptions.rotateSecret;
export const adminTestFireContract = adminSubscriptions.testFire;
export const adminTestFirePreviewContract = adminSubscriptions.testFirePreview;
export const adminReplayContract = adminSubscriptions.replay;

export const adminSuspendSubscriptionContract = defineContract({
  method: "POST",
  path: `${adminBase}/subscriptions/{id}/suspend`,
  tag: adminTag,
  summary: "Suspend deliveries (tenant admin only); resume returns to the state it interrupted",
  auth: webhookToggle,
  params: ZSubscriptionIdParams,
  response: ZSubscriptionResponse,
  errors: [...common, "license.not_found", "concurrency.revision_mismatch", "idempotency.key_reused"],
});

export const adminResumeSubscriptionContract = defineContract({
  method: "POST",
  path: `${adminBase}/subscriptions/{id}/resume`,
  tag: adminTag,
  summary: "Resume a suspended subscription",
  auth: webhookToggle,
  params: ZSubscriptionIdParams,
  response: ZSubscriptionResponse,
  errors: [...common, "license.not_found", "concurrency.revision_mismatch", "idempotency.key_reused"],
});

export const adminListCapturedEventsContract = defineContract({
  method: "GET",
  path: `${adminBase}/subscriptions/{id}/captured-events`,
  tag: adminTag,
  summary: "Events a capture subscription recorded, newest first (7 days or 1,000)",
  auth: webhookScope,
  params: ZSubscriptionIdParams,
  query: ZListQuery.pick({ pageNumber: true, pageSize: true }).extend({
    eventType: z.string().max(200).optional(),
  }),
  response: ZPage(ZCapturedEvent),
  errors: [...common, "license.validation_error", "license.not_found", "subscription.not_applicable"],
});

export const adminListDeliveriesContract = defineContract({
  method: "GET",
  path: `${adminBase}/deliveries`,
  tag: adminTag,
  summary: "Delivery history across the tenant",
  auth: webhookScope,
  query: ZListQuery,
  response: ZPage(ZDeliverySummary),
  errors: [...common, "license.validation_error"],
});

export const adminGetDeliveryContract = defineContract({
  method: "GET",
  path: `${adminBase}/deliveries/{envelopeId}`,
  tag: adminTag,
  summary:
    "One delivery with every attempt, the bytes sent and response excerpts; subscriptionId when the envelope reached several",
  auth: webhookScope,
  params: ZDeliveryEnvelopeParams,
  query: ZDeliveryDetailQuery,
  response: ZDeliveryDetail,
  errors: [...common, "license.validation_error", "license.not_found", "delivery.ambiguous_envelope"],
});

export const adminListDeadLettersContract = defineContract({
  method: "GET",
  path: `${adminBase}/dead-letters`,
  tag: adminTag,
  summary: "Deliveries that ultimately failed (requeueable)",
  auth: webhookScope,
  query: ZListQuery,
  response: ZPage(ZDeliverySummary),
  errors: [...common, "license.validation_error"],
});

export const adminRequeueDeadLetterContract = defineContract({
  method: "POST",
  path: `${adminBase}/dead-letters/{deliveryId}/requeue`,
  tag: adminTag,
  summary: "Send a dead letter again with a fresh retry schedule (same envelope id)",
  auth: webhookToggle,
  params: ZDeliveryIdParams,
  response: ZDeliverySummary,
  errors: [
    ...common,
    "license.not_found",
    "delivery.not_dead_lettered",
    "subscription.invalid_state",
    "idempotency.key_reused",
  ],
});

const allowancePath = `${adminBase}/integrator-clients/{clientId}/callback-scope-allowance`;

export const adminGetCallbackScopeAllowanceContract = defineContract({
  method: "GET",
  path: allowancePath,
  tag: adminTag,
  summary: "The callback scopes an integrator client's subscriptions may request (empty by default)",
  auth: webhookScope,
  params: ZIntegratorClientParams,
  response: ZCallbackScopeAllowanceResponse,
  errors: [...common, "license.not_found", "client.not_integrator"],
});

export const adminSetCallbackScopeAllowanceContract = defineContract({
  method: "PUT",
  path: allowancePath,
  tag: adminTag,
  summary:
    "Set the callback scopes an integrator client's subscriptions may request; narrowing it narrows its subscriptions",
  auth: webhookScope,
  params: ZIntegratorClientParams,
  body: ZCallbackScopeAllowanceRequest,
  response: ZCallbackScopeAllowanceResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "client.not_integrator",
    "subscription.invalid_callback_scope",
    "subscription.callback_scope_not_granted",
    "idempotency.key_reused",
  ],
});
