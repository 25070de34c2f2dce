import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { readRatingCampaign } from "./rating-campaign-response.ts";

export async function getRatingCampaign(ctx: DomainContext, id: string) {
  const campaign = await readRatingCampaign(ctx.db, id);
  if (!campaign) throw notFound("Rating campaign");
  return campaign;
}
