import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope, consumer } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZConsumerPlansResponse } from "../../../domain/entitlements/plans/consumer-plans.ts";
import { ZSessionLeaseResponse } from "../../../domain/licensing/activation/activation.schemas.ts";
import {
  ZConsumerSessionResponse,
  ZSessionIdParams,
  ZSessionResponse,
  ZSessionsByUserParams,
} from "../../../domain/licensing/sessions/session-read-model.ts";

const admin = "/api/v1/provision/admin/sessions/activations";
const me = "/api/v1/provision/consumer/me/sessions";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const listSessionsContract = defineContract({
  method: "GET",
  path: admin,
  tag: "Sessions",
  summary:
    "Every license session (activation) of the tenant, active and ended; filter e.g. `isActive==true`, `revocationReason==Released`",
  auth: clientScope("session"),
  query: ZListQuery,
  response: ZPage(ZSessionResponse),
  errors: [...common, "license.validation_error"],
});

export const listSessionsByUserContract = defineContract({
  method: "GET",
  path: `${admin}/by-user/{userId}`,
  tag: "Sessions",
  summary:
    "Sessions of a customer user: on entitlements assigned to them or their organizations, or activated by their login (useInteractiveUser)",
  auth: clientScope("session"),
  params: ZSessionsByUserParams,
  query: ZListQuery,
  response: ZPage(ZSessionResponse),
  errors: [...common, "license.validation_error", "license.not_found"],
});

export const listConsumerSessionsContract = defineContract({
  method: "GET",
  path: me,
  tag: "Consumer",
  summary: "The signed-in user's active license sessions (on licenses they hold or activated by them)",
  auth: consumer,
  query: ZListQuery,
  response: ZPage(ZConsumerSessionResponse),
  errors: ["auth.unauthenticated", "license.validation_error"],
});

export const consumerSessionPlansContract = defineContract({
  method: "GET",
  path: `${me}/{sessionId}/plans`,
  tag: "Consumer",
  summary: "The plans behind one of the signed-in user's sessions (its license's plans, current marked)",
  auth: consumer,
  params: ZSessionIdParams,
  response: ZConsumerPlansResponse,
  errors: ["auth.unauthenticated", "license.not_found"],
});

export const releaseConsumerSessionContract = defineContract({
  method: "POST",
  path: `${me}/{sessionId}/release`,
  tag: "Consumer",
  summary: "Release one of the signed-in user's sessions: the seat is freed (emits Entitlement.SeatReleased)",
  auth: consumer,
  params: ZSessionIdParams,
  response: ZSessionLeaseResponse,
  errors: [
    "auth.unauthenticated",
    "license.not_found",
    "license.no_active_session",
    "idempotency.key_reused",
  ],
});
