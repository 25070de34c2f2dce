import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TRatingCampaignUpdateRequest } from "./rating-campaign.schemas.ts";
import { targetRows } from "./rating-campaign-targets.ts";
import { readRatingCampaign } from "./rating-campaign-response.ts";

/**
 * PUT /admin/rating-campaigns/{id}: replaces the campaign; targets and offers null keep them.
 * With `revisionNumber` (docs/api.md lists one) a stale write answers 409 and changes nothing.
 */
export async function updateRatingCampaign(
  ctx: DomainContext,
  id: string,
  input: TRatingCampaignUpdateRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await tx.ratingCampaign.findUnique({
      where: { id },
      include: { targets: { select: { featureCatalogId: true } } },
    });
    if (!current) throw notFound("Rating campaign");
    const { count } = await tx.ratingCampaign.updateMany({
      where: { id, ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}) },
      data: {
        name: input.name,
        description: input.description,
        isEnabled: input.isEnabled,
        startsAt: input.startsAt ? new Date(input.startsAt) : null,
        endsAt: input.endsAt ? new Date(input.endsAt) : null,
        ...(input.offers ? { offerIds: input.offers.map((o) => o.offerId.toLowerCase()) } : {}),
        revisionNumber: { increment: 1 },
      },
    });
    if (count === 0) {
      throw new AppError(
        "concurrency.revision_mismatch",
        `The campaign was changed since revision ${input.revisionNumber}; reload it and try again.`,
      );
    }
    if (input.targets) {
      const rows = await targetRows(
        tx,
        ctx.tenantId,
        id,
        input.targets,
        current.targets.map((t) => t.featureCatalogId),
      );
      await tx.ratingCampaignTarget.deleteMany({ where: { campaignId: id } });
      if (rows.length) await tx.ratingCampaignTarget.createMany({ data: rows });
    }
    return (await readRatingCampaign(tx, id))!;
  });
}
