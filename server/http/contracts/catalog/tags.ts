import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZTagCreateRequest,
  ZTagIdParams,
  ZTagListQuery,
  ZTagMergeRequest,
  ZTagResponse,
  ZTagUpdateRequest,
} from "../../../domain/catalog/tags/tag.schemas.ts";

const base = "/api/v1/provision/admin/tags";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const listTagsContract = defineContract({
  method: "GET",
  path: base,
  tag: "Tags",
  summary: "List tags",
  auth: clientScope("tag"),
  query: ZListQuery.extend(ZTagListQuery.shape),
  response: ZPage(ZTagResponse),
  errors: [...common, "license.validation_error"],
});

export const createTagContract = defineContract({
  method: "POST",
  path: base,
  tag: "Tags",
  summary: "Create a tag",
  auth: clientScope("tag"),
  body: ZTagCreateRequest,
  response: ZTagResponse,
  status: 201,
  errors: [...common, "license.validation_error", "tag.name_taken", "idempotency.key_reused"],
});

export const getTagContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag: "Tags",
  summary: "Read a tag",
  auth: clientScope("tag"),
  params: ZTagIdParams,
  response: ZTagResponse,
  errors: [...common, "license.not_found"],
});

export const updateTagContract = defineContract({
  method: "PATCH",
  path: `${base}/{id}`,
  tag: "Tags",
  summary: "Rename or recolour a tag (merge-PATCH; `clearColor` clears the colour)",
  auth: clientScope("tag"),
  params: ZTagIdParams,
  body: ZTagUpdateRequest,
  response: ZTagResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "tag.name_taken",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});

export const deleteTagContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag: "Tags",
  summary: "Delete a tag (soft delete; it leaves every record)",
  auth: clientScope("tag"),
  params: ZTagIdParams,
  status: 204,
  errors: [...common, "license.not_found"],
});

export const mergeTagContract = defineContract({
  method: "POST",
  path: `${base}/{id}/merge`,
  tag: "Tags",
  summary: "Merge this tag into another of the same scope",
  auth: clientScope("tag", "update"),
  params: ZTagIdParams,
  body: ZTagMergeRequest,
  response: ZTagResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "tag.scope_mismatch",
    "tag.merge_into_self",
    "idempotency.key_reused",
  ],
});
