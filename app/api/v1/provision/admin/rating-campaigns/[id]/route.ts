import { route } from "@/server/http/route";
import { deleteRatingCampaignContract, getRatingCampaignContract, updateRatingCampaignContract } from "@/server/http/contracts/rating-campaigns";
import { getRatingCampaign } from "@/server/domain/catalog/get-rating-campaign";
import { updateRatingCampaign } from "@/server/domain/catalog/update-rating-campaign";
import { deleteRatingCampaign } from "@/server/domain/catalog/delete-rating-campaign";

// GET /api/v1/provision/admin/rating-campaigns/{id}
export const GET = route(getRatingCampaignContract, ({ ctx, params }) => getRatingCampaign(ctx, params.id));

// PUT /api/v1/provision/admin/rating-campaigns/{id}
export const PUT = route(updateRatingCampaignContract, ({ ctx, params, body }) => updateRatingCampaign(ctx, params.id, body));

// DELETE /api/v1/provision/admin/rating-campaigns/{id}
export const DELETE = route(deleteRatingCampaignContract, ({ ctx, params }) => deleteRatingCampaign(ctx, params.id));
