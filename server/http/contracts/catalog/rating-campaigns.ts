import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZRatingCampaignCreateRequest,
  ZRatingCampaignIdParams,
  ZRatingCampaignResponse,
  ZRatingCampaignUpdateRequest,
} from "../../../domain/catalog/rating-campaigns/rating-campaign.schemas.ts";

const base = "/api/v1/provision/admin/rating-campaigns";
const tag = "Rating campaigns";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const listRatingCampaignsContract = defineContract({
  method: "GET",
  path: base,
  tag,
  summary: "List rating campaigns (isRunning is filterable)",
  auth: clientScope("rating-campaign"),
  query: ZListQuery,
  response: ZPage(ZRatingCampaignResponse),
  errors: [...common, "license.validation_error"],
});

export const createRatingCampaignContract = defineContract({
  method: "POST",
  path: base,
  tag,
  summary: "Create a rating campaign",
  auth: clientScope("rating-campaign"),
  body: ZRatingCampaignCreateRequest,
  response: ZRatingCampaignResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});

export const getRatingCampaignContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag,
  summary: "Read a rating campaign",
  auth: clientScope("rating-campaign"),
  params: ZRatingCampaignIdParams,
  response: ZRatingCampaignResponse,
  errors: [...common, "license.not_found"],
});

export const updateRatingCampaignContract = defineContract({
  method: "PUT",
  path: `${base}/{id}`,
  tag,
  summary: "Replace a rating campaign (targets/offers null keep them)",
  auth: clientScope("rating-campaign"),
  params: ZRatingCampaignIdParams,
  body: ZRatingCampaignUpdateRequest,
  response: ZRatingCampaignResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});

export const deleteRatingCampaignContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag,
  summary: "Delete a rating campaign",
  auth: clientScope("rating-campaign"),
  params: ZRatingCampaignIdParams,
  status: 204,
  errors: [...common, "license.not_found"],
});
