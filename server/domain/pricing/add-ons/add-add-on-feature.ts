import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { featuresByIds } from "../../catalog/pricing-lookups.ts";
import { readAddOn } from "./add-on-response.ts";
import { addOnArchived } from "./update-add-on.ts";

/**
 * docs/api.md POST /admin/usage-plans/add-ons/{addOnId}/features/{featureCatalogId}: the add-on also
 * grants this catalog entry (200 add-on; 404 for an unknown add-on or entry). Adding an entry the
 * add-on already grants changes nothing.
 */
export async function addAddOnFeature(ctx: DomainContext, addOnId: string, entryId: string) {
  const featureCatalogId = entryId.toLowerCase();
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; featureCatalogIds: string[] }[]>`
      SELECT status, "featureCatalogIds" FROM "AddOn" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${addOnId}::uuid FOR UPDATE`;
    if (!row) throw notFound("Add-on");
    const entry = (await featuresByIds(tx, [featureCatalogId])).get(featureCatalogId);
    if (!entry || entry.isDeleted) throw notFound("Feature catalog entry");
    if (row.status === "Archived") throw addOnArchived();
    if (!row.featureCatalogIds.includes(featureCatalogId)) {
      await tx.addOn.update({
        where: { id: addOnId },
        data: { featureCatalogIds: { push: featureCatalogId } },
      });
    }
    return (await readAddOn(tx, ctx.tenantId, addOnId))!;
  });
}
