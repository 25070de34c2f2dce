import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope, consumer } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZEntitlementIdParams,
  ZEntitlementResponse,
} from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { ZEffectiveFeaturesResponse } from "../../../domain/entitlements/entitlement/effective-features.ts";
import { ZConsumerPlansResponse } from "../../../domain/entitlements/plans/consumer-plans.ts";
import {
  ZAssignPlanRequest,
  ZIdParams,
  ZPlanChangeRequestCreate,
  ZPlanChangeRequestResponse,
  ZPlanChangeReview,
  ZPlanHistoryItem,
} from "../../../domain/entitlements/plans/plan-change.schemas.ts";

const entitlements = "/api/v1/provision/admin/entitlements";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Entitlement plans";

export const assignPlanContract = defineContract({
  method: "PUT",
  path: `${entitlements}/{id}/plan`,
  tag: Tag,
  summary: "Assign a plan (plan-set revision + plan name); writes a plan-assignment history entry",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  body: ZAssignPlanRequest,
  response: ZEntitlementResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "entitlement.archived",
    "plan.not_found",
    "plan.plan_set_not_published",
    "idempotency.key_reused",
  ],
});

export const planHistoryContract = defineContract({
  method: "GET",
  path: `${entitlements}/{id}/plan-history`,
  tag: Tag,
  summary: "The entitlement's plan-assignment history, oldest first",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  query: ZListQuery,
  response: ZPage(ZPlanHistoryItem),
  errors: [...common, "license.validation_error", "license.not_found"],
});

export const effectiveFeaturesContract = defineContract({
  method: "GET",
  path: `${entitlements}/{id}/effective-features`,
  tag: Tag,
  summary:
    "Effective features: product features, plan line items, active add-on grants (operations, planTargets), per-entitlement overrides",
  auth: clientScope("entitlement-adm"),
  params: ZEntitlementIdParams,
  response: ZEffectiveFeaturesResponse,
  errors: [...common, "license.not_found"],
});

export const createPlanChangeRequestContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/consumer/me/entitlements/{id}/plan-change-requests",
  tag: Tag,
  summary: "Ask to move one of the signed-in user's entitlements to another plan (an admin reviews it)",
  auth: consumer,
  params: ZEntitlementIdParams,
  body: ZPlanChangeRequestCreate,
  response: ZPlanChangeRequestResponse,
  status: 201,
  errors: [
    "auth.unauthenticated",
    "license.validation_error",
    "license.not_found",
    "entitlement.no_plan",
    "plan.not_found",
    "plan.plan_set_not_published",
    "plan_change.pending_exists",
  ],
});

export const listPlanChangeRequestsContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/admin/plan-change-requests",
  tag: Tag,
  summary: "Plan-change requests (filter by status, entitlementId)",
  auth: clientScope("entitlement-adm"),
  query: ZListQuery,
  response: ZPage(ZPlanChangeRequestResponse),
  errors: [...common, "license.validation_error"],
});

export const reviewPlanChangeRequestContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/admin/plan-change-requests/{id}/review",
  tag: Tag,
  summary: "Approve (assigns the plan) or reject a request; emits Entitlement.PlanChangeReviewed",
  auth: clientScope("entitlement-adm", "update"),
  params: ZIdParams,
  body: ZPlanChangeReview,
  response: ZPlanChangeRequestResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "plan_change.already_reviewed",
    "plan.not_found",
    "plan.plan_set_not_published",
  ],
});

export const consumerEntitlementPlansContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/consumer/me/entitlements/{id}/plans",
  tag: Tag,
  summary:
    "The plans behind one of the signed-in user's licenses (current marked; pending plan-change request)",
  auth: consumer,
  params: ZEntitlementIdParams,
  response: ZConsumerPlansResponse,
  errors: ["auth.unauthenticated", "license.not_found"],
});
