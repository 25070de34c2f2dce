import type { DomainContext } from "../../context.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TProductFeatureCreateRequest } from "./product.schemas.ts";
import { validateFeatureValue } from "../feature-catalog/feature-value.ts";
import { lockLiveProduct } from "./product-lock.ts";
import { liveFeatures, placeAt, renumberFeatures } from "./product-feature-order.ts";
import { loadProduct } from "./product-response.ts";
import { enumOptionsOf } from "../feature-catalog/feature-catalog-response.ts";

/** Catalog entries in these lifecycle states cannot be newly attached to a product. */
export const unattachableLifecycles = ["Disabled", "Archived"];

/**
 * POST /admin/products/{id}/features: attaches a live catalog entry once per product, with a
 * value valid for the entry's featureType, at `sortOrder` (default: last). Answers the product.
 */
export async function addProductFeature(
  ctx: DomainContext,
  productId: string,
  input: TProductFeatureCreateRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    await lockLiveProduct(tx, ctx.tenantId, productId);
    const entry = await tx.featureCatalogEntry.findUnique({ where: { id: input.featureCatalogId } });
    if (!entry || entry.isDeleted) {
      throw validationError("featureCatalogId names no feature catalog entry.", [
        { path: "featureCatalogId", message: "No such feature catalog entry." },
      ]);
    }
    if (unattachableLifecycles.includes(entry.lifecycleStatus)) {
      throw new AppError(
        "feature.not_attachable",
        `${entry.featureCode} is ${entry.lifecycleStatus}; only Draft, Preview and Published entries can be attached.`,
      );
    }
    const existing = await liveFeatures(tx, productId);
    if (existing.some((f) => f.featureCatalogId === entry.id)) {
      throw new AppError(
        "product.feature_already_attached",
        `${entry.featureCode} is already a feature of this product.`,
      );
    }
    const problem = validateFeatureValue(
      {
        featureType: entry.featureType,
        enumOptions: enumOptionsOf(entry.enumOptions),
        metricName: entry.metricName,
      },
      input.value,
    );
    if (problem) throw validationError(problem, [{ path: "value", message: problem }]);

    const created = await tx.productFeature.create({
      data: {
        tenantId: ctx.tenantId,
        productId,
        featureCatalogId: entry.id,
        moduleName: input.moduleName || null,
        name: input.name ?? entry.name,
        description: input.description,
        value: input.value,
        isEnabled: input.isEnabled,
        includeInLicenseToken: input.includeInLicenseToken,
        isAvailableDuringTrialPeriod: input.isAvailableDuringTrialPeriod,
        isAvailableDuringGracePeriod: input.isAvailableDuringGracePeriod,
        isPaidFeature: input.isPaidFeature,
        canModifyValueOnEntitlement: input.canModifyValueOnEntitlement,
        visibility: input.visibility ?? entry.visibility,
        sortOrder: existing.length + 1,
      },
      select: { id: true, sortOrder: true, featureCatalogId: true },
    });
    await renumberFeatures(tx, placeAt([...existing, created], created, input.sortOrder));
    return (await loadProduct(tx, productId))!;
  });
}
