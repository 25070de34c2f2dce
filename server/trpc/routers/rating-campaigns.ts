import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZRatingCampaignCreateRequest, ZRatingCampaignIdParams, ZRatingCampaignResponse, ZRatingCampaignUpdateRequest,
} from "../../domain/catalog/rating-campaign.schemas.ts";
import { listRatingCampaigns } from "../../domain/catalog/list-rating-campaigns.ts";
import { getRatingCampaign } from "../../domain/catalog/get-rating-campaign.ts";
import { createRatingCampaign } from "../../domain/catalog/create-rating-campaign.ts";
import { updateRatingCampaign } from "../../domain/catalog/update-rating-campaign.ts";
import { deleteRatingCampaign } from "../../domain/catalog/delete-rating-campaign.ts";

export const ratingCampaignsRouter = router({
  list: staffProcedure.input(ZListQuery).output(ZPage(ZRatingCampaignResponse)).query(({ ctx, input }) => listRatingCampaigns(ctx.domain, input)),

  get: staffProcedure.input(ZRatingCampaignIdParams).output(ZRatingCampaignResponse).query(({ ctx, input }) => getRatingCampaign(ctx.domain, input.id)),

  create: staffProcedure
    .input(ZRatingCampaignCreateRequest)
    .output(ZRatingCampaignResponse)
    .mutation(({ ctx, input }) => createRatingCampaign(ctx.domain, input)),

  update: staffProcedure
    .input(ZRatingCampaignIdParams.extend({ edit: ZRatingCampaignUpdateRequest }))
    .output(ZRatingCampaignResponse)
    .mutation(({ ctx, input }) => updateRatingCampaign(ctx.domain, input.id, input.edit)),

  delete: staffProcedure.input(ZRatingCampaignIdParams).mutation(({ ctx, input }) => deleteRatingCampaign(ctx.domain, input.id)),
});
