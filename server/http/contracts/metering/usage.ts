import { z } from "zod";
import { clientScope, licenseSession } from "../../auth.ts";
import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { defineContract } from "../../contract.ts";
import {
  ZConsumeQuery,
  ZConsumptionDecision,
  ZPreviewConsumeQuery,
  ZUsageMetricParams,
} from "../../../domain/metering/consumption/consumption.schemas.ts";
import {
  ZEntitlementUsageParams,
  ZSessionUsageParams,
  ZUsageBatch,
  ZUsageUploadResponse,
} from "../../../domain/metering/usage/usage-record.schemas.ts";
import {
  ZEntitlementMeter,
  ZMeterConsumptionResponse,
  ZMeterUsageResponse,
} from "../../../domain/metering/meters/meter.schemas.ts";
import {
  ZRatingAnswerRequest,
  ZRatingAnswerResponse,
  ZRatingPromptResponse,
} from "../../../domain/metering/rating-prompts/rating-prompt.schemas.ts";

const base = "/api/v1/provision/usage";
const sessionErrors = [
  "license.session_token_rejected",
  "license.validation_error",
  "license.no_active_session",
] as const;

export const uploadSessionUsageContract = defineContract({
  method: "POST",
  path: `${base}/sessions/{sessionId}/transactions`,
  tag: "Runtime usage",
  summary:
    "Upload a batch of usage transaction records (session token). Deduplicated per license and transactionId across sessions; records captured more than 90 days ago are acknowledged, not counted; a session that no longer exists answers entitlementResolved: false and records nothing",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  rateLimitsCountedByHandler: true,
  params: ZSessionUsageParams,
  body: ZUsageBatch,
  response: ZUsageUploadResponse,
  errors: [
    "license.session_token_rejected",
    "license.validation_error",
    "usage.batch_too_large",
    "usage.amount_exceeds_ceiling",
    "usage.meter_limit_exceeded",
    "license.conflict",
  ],
});

export const uploadEntitlementUsageContract = defineContract({
  method: "POST",
  path: `${base}/entitlements/{entitlementId}/transactions`,
  tag: "Runtime usage",
  summary:
    "Upload a batch of usage transaction records for an entitlement (operational credential, no session). 503 usage.overloaded with Retry-After when too many uploads run; a shed batch records nothing",
  auth: clientScope("usage"),
  params: ZEntitlementUsageParams,
  body: ZUsageBatch,
  response: ZUsageUploadResponse,
  errors: [
    "auth.unauthenticated",
    "auth.insufficient_scope",
    "license.validation_error",
    "license.not_found",
    "usage.batch_too_large",
    "usage.amount_exceeds_ceiling",
    "usage.meter_limit_exceeded",
    "usage.overloaded",
    "license.conflict",
  ],
});

export const previewConsumeContract = defineContract({
  method: "POST",
  path: `${base}/preview-consume/{sessionId}/{metric}`,
  tag: "Runtime usage",
  summary:
    "The consumption decision for `amount` (default 1) without committing it: changes nothing, reserves nothing",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  params: ZUsageMetricParams,
  query: ZPreviewConsumeQuery,
  response: ZConsumptionDecision,
  errors: [...sessionErrors, "license.metric_not_tracked"],
});

export const consumeContract = defineContract({
  method: "POST",
  path: `${base}/consume/{sessionId}/{metric}`,
  tag: "Runtime usage",
  summary:
    "The binding consumption decision: an allowed amount is recorded and its overage charged; a refusal charges nothing. idempotencyKey is remembered 24 hours per license",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  rateLimitsCountedByHandler: true,
  params: ZUsageMetricParams,
  query: ZConsumeQuery,
  response: ZConsumptionDecision,
  errors: [...sessionErrors, "license.metric_not_tracked", "idempotency.key_reused"],
});

export const meterUsageContract = defineContract({
  method: "GET",
  path: `${base}/{sessionId}/{metric}/usage`,
  tag: "Runtime usage",
  summary: "The current usage snapshot of a metric; 204 for a metric the license does not track",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  params: ZUsageMetricParams,
  response: ZMeterUsageResponse,
  errors: [...sessionErrors],
});

export const meterConsumptionContract = defineContract({
  method: "GET",
  path: `${base}/{sessionId}/{metric}/consumption`,
  tag: "Runtime usage",
  summary:
    "What remains of a metric's allowance and of the balances it draws on; 204 for a metric the license does not track",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  params: ZUsageMetricParams,
  response: ZMeterConsumptionResponse,
  errors: [...sessionErrors],
});

export const ratingPromptContract = defineContract({
  method: "GET",
  path: `${base}/sessions/{sessionId}/rating-prompt`,
  tag: "Runtime usage",
  summary:
    "The next feature-rating prompt of a running campaign that applies to the license; 204 when none applies",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  params: ZSessionUsageParams,
  response: ZRatingPromptResponse,
  errors: [...sessionErrors],
});

export const ratingAnswerContract = defineContract({
  method: "POST",
  path: `${base}/sessions/{sessionId}/rating-prompt/answers`,
  tag: "Runtime usage",
  summary:
    "Record the answer to a rating prompt (rating 1-5, or null to decline); the target is not asked again on this license",
  auth: licenseSession,
  rateLimits: ["usage.session"],
  params: ZSessionUsageParams,
  body: ZRatingAnswerRequest,
  response: ZRatingAnswerResponse,
  errors: [...sessionErrors, "usage.rating_not_applicable"],
});

export const entitlementMetersContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/operational/entitlements/{id}/meters",
  tag: "Usage",
  summary:
    "An entitlement's meters: terms, the current period's usage, severity and remaining allowance, balances and the next auto-balance instants",
  auth: clientScope("usage"),
  params: ZEntitlementIdParams,
  response: z.array(ZEntitlementMeter),
  errors: ["auth.unauthenticated", "auth.insufficient_scope", "license.not_found"],
});
