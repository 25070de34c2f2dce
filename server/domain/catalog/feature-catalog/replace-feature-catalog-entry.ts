import type { DomainContext } from "../../context.ts";
import { AppError, notFound, validationError, type FieldIssue } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { Prisma } from "../../../db/generated/client.ts";
import type { TFeatureCatalogReplaceRequest } from "./feature-catalog.schemas.ts";
import { validateFeatureValue } from "./feature-value.ts";
import { setRecordTags } from "../tags/record-tags.ts";
import { getFeatureCatalogEntry } from "./get-feature-catalog-entry.ts";

/**
 * PUT /admin/feature-catalog/{id}: replaces the editable fields. A change of featureType,
 * enumOptions or metricName must keep every live product feature's value valid: the values that
 * would no longer read correctly are listed in a 400 and nothing changes.
 */
export async function replaceFeatureCatalogEntry(
  ctx: DomainContext,
  id: string,
  input: TFeatureCatalogReplaceRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await tx.featureCatalogEntry.findUnique({ where: { id } });
    if (!current || current.isDeleted) throw notFound("Feature catalog entry");
    const enumOptions =
      input.featureType === "Enumeration"
        ? input.enumOptions!.map((o) => ({ value: o.value, description: o.description }))
        : null;

    const features = await tx.productFeature.findMany({
      where: { featureCatalogId: id, isDeleted: false, product: { isDeleted: false } },
      select: { id: true, value: true, product: { select: { productCode: true, productVersion: true } } },
    });
    const issues: FieldIssue[] = [];
    for (const feature of features) {
      const problem = validateFeatureValue(
        { featureType: input.featureType, enumOptions, metricName: input.metricName },
        feature.value,
      );
      if (problem) {
        const product = `${feature.product.productCode}${feature.product.productVersion ? `@${feature.product.productVersion}` : ""}`;
        issues.push({
          path: `productFeatures.${feature.id}.value`,
          message: `Product ${product}: ${problem}`,
        });
      }
    }
    if (issues.length)
      throw validationError(
        `The change would invalidate ${issues.length} product feature value(s); change those values first.`,
        issues,
      );

    const { count } = await tx.featureCatalogEntry.updateMany({
      where: {
        id,
        isDeleted: false,
        ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}),
      },
      data: {
        name: input.name,
        units: input.units || null,
        metricName: input.metricName,
        featureType: input.featureType,
        visibility: input.visibility,
        meterAggregationType: input.meterAggregationType,
        valueScore: input.valueScore,
        enumOptions: enumOptions ?? Prisma.DbNull,
        revisionNumber: { increment: 1 },
      },
    });
    if (count === 0) {
      throw new AppError(
        "concurrency.revision_mismatch",
        `The entry was changed since revision ${input.revisionNumber}; reload it and try again.`,
      );
    }
    await setRecordTags(tx, ctx.tenantId, "FeatureCatalog", id, input.tags);
    return getFeatureCatalogEntry({ ...ctx, db: tx }, id);
  });
}
