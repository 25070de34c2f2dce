import { route } from "@/server/http/route";
import {
  createRatingCampaignContract,
  listRatingCampaignsContract,
} from "@/server/http/contracts/catalog/rating-campaigns";
import { listRatingCampaigns } from "@/server/domain/catalog/rating-campaigns/list-rating-campaigns";
import { createRatingCampaign } from "@/server/domain/catalog/rating-campaigns/create-rating-campaign";

// GET /api/v1/provision/admin/rating-campaigns
export const GET = route(listRatingCampaignsContract, ({ ctx, query }) => listRatingCampaigns(ctx, query));

// POST /api/v1/provision/admin/rating-campaigns
export const POST = route(createRatingCampaignContract, ({ ctx, body }) => createRatingCampaign(ctx, body));
