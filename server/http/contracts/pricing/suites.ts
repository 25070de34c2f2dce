import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZSuiteCreateRequest,
  ZSuiteIdParams,
  ZSuiteListQuery,
  ZSuiteMemberParams,
  ZSuiteMembersRequest,
  ZSuiteResponse,
  ZSuiteUpdateRequest,
} from "../../../domain/pricing/suites/suite.schemas.ts";

const base = "/api/v1/provision/admin/suites";
const tag = "Suites";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const listSuitesContract = defineContract({
  method: "GET",
  path: base,
  tag,
  summary: "List suites (implicit suites only with includeImplicit=true)",
  auth: clientScope("suite"),
  query: ZListQuery.extend(ZSuiteListQuery.shape),
  response: ZPage(ZSuiteResponse),
  errors: [...common, "license.validation_error"],
});

export const createSuiteContract = defineContract({
  method: "POST",
  path: base,
  tag,
  summary: "Create a suite with its members in sell order",
  auth: clientScope("suite"),
  body: ZSuiteCreateRequest,
  response: ZSuiteResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "suite.code_taken",
    "idempotency.key_reused",
  ],
});

export const getSuiteContract = defineContract({
  method: "GET",
  path: `${base}/{suiteId}`,
  tag,
  summary: "Read a suite",
  auth: clientScope("suite"),
  params: ZSuiteIdParams,
  response: ZSuiteResponse,
  errors: [...common, "license.not_found"],
});

export const updateSuiteContract = defineContract({
  method: "PATCH",
  path: `${base}/{suiteId}`,
  tag,
  summary: "Change a suite's code, name or description (merge-PATCH)",
  auth: clientScope("suite"),
  params: ZSuiteIdParams,
  body: ZSuiteUpdateRequest,
  response: ZSuiteResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "suite.code_taken",
    "idempotency.key_reused",
  ],
});

export const deleteSuiteContract = defineContract({
  method: "DELETE",
  path: `${base}/{suiteId}`,
  tag,
  summary: "Delete a suite that owns no plan set and no add-on",
  auth: clientScope("suite"),
  params: ZSuiteIdParams,
  status: 204,
  errors: [...common, "license.not_found", "suite.in_use"],
});

export const setSuiteMembersContract = defineContract({
  method: "POST",
  path: `${base}/{suiteId}/members`,
  tag,
  summary: "Set the sell order: add products and reorder members (every current member must be listed)",
  auth: clientScope("suite", "update"),
  params: ZSuiteIdParams,
  body: ZSuiteMembersRequest,
  response: ZSuiteResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});

export const deleteSuiteMemberContract = defineContract({
  method: "DELETE",
  path: `${base}/{suiteId}/members/{productId}`,
  tag,
  summary:
    "Remove a product from a suite (draft revisions lose its line items; a published one gets a draft copy)",
  auth: clientScope("suite"),
  params: ZSuiteMemberParams,
  status: 204,
  errors: [...common, "license.not_found"],
});
