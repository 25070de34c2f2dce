import type { DomainContext } from "../../context.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TProductFeatureUpdateRequest } from "./product.schemas.ts";
import { validateFeatureValue } from "../feature-catalog/feature-value.ts";
import { lockLiveProduct } from "./product-lock.ts";
import { liveFeatures, placeAt, renumberFeatures } from "./product-feature-order.ts";
import { loadProduct } from "./product-response.ts";
import { enumOptionsOf } from "../feature-catalog/feature-catalog-response.ts";

/**
 * PATCH /admin/products/{id}/features/{featureId}: merge; the value is checked against the
 * catalog entry's featureType; `sortOrder` moves the feature (the others close up). Answers the
 * product with its features in order.
 */
export async function updateProductFeature(
  ctx: DomainContext,
  productId: string,
  featureId: string,
  input: TProductFeatureUpdateRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    await lockLiveProduct(tx, ctx.tenantId, productId);
    const feature = await tx.productFeature.findUnique({
      where: { id: featureId },
      include: { featureCatalog: true },
    });
    if (!feature || feature.productId !== productId || feature.isDeleted) throw notFound("Product feature");
    if (input.revisionNumber && input.revisionNumber !== feature.revisionNumber) {
      throw new AppError(
        "concurrency.revision_mismatch",
        `The feature was changed since revision ${input.revisionNumber}; reload it and try again.`,
      );
    }
    const value = input.clearValue ? null : (input.value ?? undefined);
    if (value !== undefined) {
      const entry = feature.featureCatalog;
      const problem = validateFeatureValue(
        {
          featureType: entry.featureType,
          enumOptions: enumOptionsOf(entry.enumOptions),
          metricName: entry.metricName,
        },
        value,
      );
      if (problem) throw validationError(problem, [{ path: "value", message: problem }]);
    }
    await tx.productFeature.update({
      where: { id: featureId },
      data: {
        ...(input.clearModuleName
          ? { moduleName: null }
          : input.moduleName != null
            ? { moduleName: input.moduleName || null }
            : {}),
        ...(input.name != null ? { name: input.name } : {}),
        ...(input.description != null ? { description: input.description } : {}),
        ...(value !== undefined ? { value } : {}),
        ...(input.isEnabled != null ? { isEnabled: input.isEnabled } : {}),
        ...(input.includeInLicenseToken != null
          ? { includeInLicenseToken: input.includeInLicenseToken }
          : {}),
        ...(input.isAvailableDuringTrialPeriod != null
          ? { isAvailableDuringTrialPeriod: input.isAvailableDuringTrialPeriod }
          : {}),
        ...(input.isAvailableDuringGracePeriod != null
          ? { isAvailableDuringGracePeriod: input.isAvailableDuringGracePeriod }
          : {}),
        ...(input.isPaidFeature != null ? { isPaidFeature: input.isPaidFeature } : {}),
        ...(input.canModifyValueOnEntitlement != null
          ? { canModifyValueOnEntitlement: input.canModifyValueOnEntitlement }
          : {}),
        ...(input.visibility != null ? { visibility: input.visibility } : {}),
        revisionNumber: { increment: 1 },
      },
    });
    if (input.sortOrder != null) {
      const ordered = await liveFeatures(tx, productId);
      const moving = ordered.find((f) => f.id === featureId)!;
      await renumberFeatures(tx, placeAt(ordered, moving, input.sortOrder));
    }
    return (await loadProduct(tx, productId))!;
  });
}
