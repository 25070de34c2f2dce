import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZPlanSetCreateRequest,
  ZPlanSetIdParams,
  ZPlanSetResponse,
  ZPlanSetStatusRequest,
  ZPlanSetUpdateRequest,
} from "../../../domain/pricing/plan-sets/plan-set.schemas.ts";
import { BODY_LIMITS } from "../../body.ts";

const base = "/api/v1/provision/admin/usage-plans/plan-sets";
const tag = "Plan sets";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const listPlanSetsContract = defineContract({
  method: "GET",
  path: base,
  tag,
  summary: "List plan-set revisions of every suite",
  auth: clientScope("plan-set"),
  query: ZListQuery,
  response: ZPage(ZPlanSetResponse),
  errors: [...common, "license.validation_error"],
});

export const createPlanSetContract = defineContract({
  method: "POST",
  path: base,
  tag,
  summary:
    "Create a Draft revision for a suite, or price one product (productId: its implicit suite, created the first time)",
  auth: clientScope("plan-set"),
  body: ZPlanSetCreateRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZPlanSetResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});

export const getPlanSetContract = defineContract({
  method: "GET",
  path: `${base}/{planSetId}`,
  tag,
  summary: "Read a plan-set revision",
  auth: clientScope("plan-set"),
  params: ZPlanSetIdParams,
  response: ZPlanSetResponse,
  errors: [...common, "license.not_found"],
});

export const updatePlanSetContract = defineContract({
  method: "PUT",
  path: `${base}/{planSetId}`,
  tag,
  summary:
    "Edit a revision: a Draft in place; a Published one through a new Draft copy (returned); Archived is read-only",
  auth: clientScope("plan-set"),
  params: ZPlanSetIdParams,
  body: ZPlanSetUpdateRequest,
  // Whole plan sets, add-ons and offers (hundreds of feature values of up to 10,000 characters).
  maxBodyBytes: BODY_LIMITS.large,
  response: ZPlanSetResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "plan_set.archived",
    "plan_set.status_change_through_edit",
    "idempotency.key_reused",
  ],
});

export const movePlanSetStatusContract = defineContract({
  method: "PUT",
  path: `${base}/{planSetId}/status`,
  tag,
  summary:
    "Move a revision: Draft→Published (archives the suite's published one), Draft→Archived, Published→Archived",
  auth: clientScope("plan-set"),
  params: ZPlanSetIdParams,
  body: ZPlanSetStatusRequest,
  response: ZPlanSetResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "plan_set.invalid_status_transition",
    "plan_set.not_publishable",
    "idempotency.key_reused",
  ],
});

export const listPlanSetRevisionsContract = defineContract({
  method: "GET",
  path: `${base}/{planSetId}/revisions`,
  tag,
  summary: "The revision timeline of the plan set's suite",
  auth: clientScope("plan-set"),
  params: ZPlanSetIdParams,
  query: ZListQuery,
  response: ZPage(ZPlanSetResponse),
  errors: [...common, "license.validation_error", "license.not_found"],
});
