import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TRatingCampaignCreateRequest } from "./rating-campaign.schemas.ts";
import { targetRows } from "./rating-campaign-targets.ts";
import { readRatingCampaign } from "./rating-campaign-response.ts";

/** docs/api.md "Rating campaign". Offers are stored by id; their names resolve when read. */
export async function createRatingCampaign(ctx: DomainContext, input: TRatingCampaignCreateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const row = await tx.ratingCampaign.create({
      data: {
        tenantId: ctx.tenantId,
        name: input.name,
        description: input.description,
        isEnabled: input.isEnabled,
        startsAt: input.startsAt ? new Date(input.startsAt) : null,
        endsAt: input.endsAt ? new Date(input.endsAt) : null,
        offerIds: input.offers.map((o) => o.offerId.toLowerCase()),
      },
    });
    const targets = await targetRows(tx, ctx.tenantId, row.id, input.targets);
    if (targets.length) await tx.ratingCampaignTarget.createMany({ data: targets });
    return (await readRatingCampaign(tx, row.id))!;
  });
}
