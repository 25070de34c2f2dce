import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { clearRecordTags } from "../tags/record-tags.ts";
import { featureReferencedBy, isReferenced, referenceIssues } from "./feature-catalog-references.ts";

/**
 * Soft delete of an entry nothing refers to (its code becomes free). An entry that products,
 * plan sets, add-ons, grants or rating campaigns refer to is refused (400 feature.in_use with the
 * counts): archive it instead (PUT .../lifecycle).
 */
export async function deleteFeatureCatalogEntry(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; featureCode: string; isDeleted: boolean }[]>`
      SELECT id, "featureCode", "isDeleted" FROM "FeatureCatalogEntry"
      WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    const entry = rows[0];
    if (!entry || entry.isDeleted) throw notFound("Feature catalog entry");
    const refs = await featureReferencedBy(tx, entry);
    if (isReferenced(refs)) {
      throw new AppError(
        "feature.in_use",
        `${entry.featureCode} is still referred to; archive it instead of deleting it.`,
        { issues: referenceIssues(refs) },
      );
    }
    await tx.featureCatalogEntry.update({
      where: { id },
      data: { isDeleted: true, activeCodeKey: null, revisionNumber: { increment: 1 } },
    });
    await clearRecordTags(tx, id);
  });
}
