import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";

/** Removes a campaign and its targets. */
export async function deleteRatingCampaign(ctx: DomainContext, id: string): Promise<void> {
  const { count } = await ctx.db.ratingCampaign.deleteMany({ where: { id } });
  if (count === 0) throw notFound("Rating campaign");
}
