import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { readOffer } from "./offer-response.ts";
import { resolvePlan } from "../plans/plan-lookup.ts";
import { syncOwnerStatus } from "./template-snapshot.ts";
import { clearRecordTags } from "../../catalog/tags/record-tags.ts";

async function lockOffer(
  tx: Parameters<Parameters<typeof inTransaction>[1]>[0],
  tenantId: string,
  id: string,
) {
  const [row] = await tx.$queryRaw<{ status: string; planSetId: string | null; planName: string | null }[]>`
    SELECT status, "planSetId", "planName" FROM "Offer" WHERE "tenantId" = ${tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  if (!row) throw notFound("Offer");
  return row;
}

/**
 * POST /admin/offers/{id}/publish: Draft → Published (entitlements can be made from it from now
 * on). A plan it names must be in a Published plan-set revision. Publishing twice changes nothing.
 */
export async function publishOffer(ctx: DomainContext, id: string) {
  return inTransaction(ctx.db, async (tx) => {
    const row = await lockOffer(tx, ctx.tenantId, id);
    if (row.status === "Archived")
      throw new AppError("offer.invalid_status_transition", "An archived offer cannot be published.");
    if (row.status === "Draft") {
      if (row.planSetId && row.planName)
        await resolvePlan(tx, row.planSetId, row.planName, { requirePublished: true });
      await tx.offer.update({
        where: { id },
        data: { status: "Published", publishedAt: now(), revisionNumber: { increment: 1 } },
      });
      await syncOwnerStatus(tx, id, "Published");
    }
    return (await readOffer(tx, id))!;
  });
}

/**
 * DELETE /admin/offers/{id}: a Draft offer is removed with its asset copies and grants; a
 * Published one is archived (kept, since entitlements name it as sourceOfferId; no new
 * entitlements can be made from it and its balance copies are no longer drawn on).
 */
export async function deleteOffer(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const row = await lockOffer(tx, ctx.tenantId, id);
    if (row.status === "Draft") {
      await tx.monitoredAsset.deleteMany({ where: { ownerId: id, ownerKind: "Offer" } });
      await tx.addOnGrant.deleteMany({ where: { offerId: id } });
      await tx.offer.delete({ where: { id } });
      await clearRecordTags(tx, id);
      return;
    }
    if (row.status === "Published") {
      await tx.offer.update({
        where: { id },
        data: { status: "Archived", revisionNumber: { increment: 1 } },
      });
      await syncOwnerStatus(tx, id, "Archived");
    }
  });
}

export async function getOffer(ctx: DomainContext, id: string) {
  const offer = await readOffer(ctx.db, id);
  if (!offer) throw notFound("Offer");
  return offer;
}
