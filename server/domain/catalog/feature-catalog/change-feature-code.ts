import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TFeatureCodeRequest } from "./feature-catalog.schemas.ts";
import { featureReferencedBy } from "./feature-catalog-references.ts";
import { featureCodeTaken } from "./create-feature-catalog-entry.ts";
import { getFeatureCatalogEntry } from "./get-feature-catalog-entry.ts";

/**
 * PUT /admin/feature-catalog/{id}/code. Products refer to the entry by id and follow the new code;
 * plan sets and add-ons store the code itself (and published revisions are never edited), so an
 * entry they refer to keeps its code (400 feature.in_use).
 */
export async function changeFeatureCode(ctx: DomainContext, id: string, input: TFeatureCodeRequest) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const current = await tx.featureCatalogEntry.findUnique({ where: { id } });
      if (!current || current.isDeleted) throw notFound("Feature catalog entry");
      if (current.featureCode !== input.featureCode) {
        const refs = await featureReferencedBy(tx, current);
        if (refs.planSets || refs.addOns) {
          throw new AppError(
            "feature.in_use",
            `${current.featureCode} is used by ${refs.planSets} plan set revision(s) and ${refs.addOns} add-on(s), which store the code; it cannot be renamed.`,
            {
              issues: [
                { path: "referencedBy.planSets", message: String(refs.planSets) },
                { path: "referencedBy.addOns", message: String(refs.addOns) },
              ],
            },
          );
        }
      }
      const { count } = await tx.featureCatalogEntry.updateMany({
        where: {
          id,
          isDeleted: false,
          ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}),
        },
        data: {
          featureCode: input.featureCode,
          activeCodeKey: input.featureCode,
          revisionNumber: { increment: 1 },
        },
      });
      if (count === 0) {
        throw new AppError(
          "concurrency.revision_mismatch",
          `The entry was changed since revision ${input.revisionNumber}; reload it and try again.`,
        );
      }
      return getFeatureCatalogEntry({ ...ctx, db: tx }, id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw featureCodeTaken(input.featureCode);
    throw error;
  }
}
