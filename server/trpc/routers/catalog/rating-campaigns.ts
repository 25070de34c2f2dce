import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZRatingCampaignCreateRequest,
  ZRatingCampaignIdParams,
  ZRatingCampaignResponse,
  ZRatingCampaignUpdateRequest,
} from "../../../domain/catalog/rating-campaigns/rating-campaign.schemas.ts";
import { listRatingCampaigns } from "../../../domain/catalog/rating-campaigns/list-rating-campaigns.ts";
import { getRatingCampaign } from "../../../domain/catalog/rating-campaigns/get-rating-campaign.ts";
import { createRatingCampaign } from "../../../domain/catalog/rating-campaigns/create-rating-campaign.ts";
import { updateRatingCampaign } from "../../../domain/catalog/rating-campaigns/update-rating-campaign.ts";
import { deleteRatingCampaign } from "../../../domain/catalog/rating-campaigns/delete-rating-campaign.ts";

export const ratingCampaignsRouter = router({
  list: staffProcedure("catalog")
    .input(ZListQuery)
    .output(ZPage(ZRatingCampaignResponse))
    .query(({ ctx, input }) => listRatingCampaigns(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZRatingCampaignIdParams)
    .output(ZRatingCampaignResponse)
    .query(({ ctx, input }) => getRatingCampaign(ctx.domain, input.id)),

  create: staffProcedure("catalog")
    .input(ZRatingCampaignCreateRequest)
    .output(ZRatingCampaignResponse)
    .mutation(({ ctx, input }) => createRatingCampaign(ctx.domain, input)),

  update: staffProcedure("catalog")
    .input(ZRatingCampaignIdParams.extend({ edit: ZRatingCampaignUpdateRequest }))
    .output(ZRatingCampaignResponse)
    .mutation(({ ctx, input }) => updateRatingCampaign(ctx.domain, input.id, input.edit)),

  delete: staffProcedure("catalog")
    .input(ZRatingCampaignIdParams)
    .mutation(({ ctx, input }) => deleteRatingCampaign(ctx.domain, input.id)),
});
