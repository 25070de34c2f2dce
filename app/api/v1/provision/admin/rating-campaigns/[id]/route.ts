import { route } from "@/server/http/route";
import {
  deleteRatingCampaignContract,
  getRatingCampaignContract,
  updateRatingCampaignContract,
} from "@/server/http/contracts/catalog/rating-campaigns";
import { getRatingCampaign } from "@/server/domain/catalog/rating-campaigns/get-rating-campaign";
import { updateRatingCampaign } from "@/server/domain/catalog/rating-campaigns/update-rating-campaign";
import { deleteRatingCampaign } from "@/server/domain/catalog/rating-campaigns/delete-rating-campaign";

// GET /api/v1/provision/admin/rating-campaigns/{id}
export const GET = route(getRatingCampaignContract, ({ ctx, params }) => getRatingCampaign(ctx, params.id));

// PUT /api/v1/provision/admin/rating-campaigns/{id}
export const PUT = route(updateRatingCampaignContract, ({ ctx, params, body }) =>
  updateRatingCampaign(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/rating-campaigns/{id}
export const DELETE = route(deleteRatingCampaignContract, ({ ctx, params }) =>
  deleteRatingCampaign(ctx, params.id),
);
