import type { DomainContext } from "../../context.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TFeatureCatalogCreateRequest } from "./feature-catalog.schemas.ts";
import { setRecordTags } from "../tags/record-tags.ts";
import { getFeatureCatalogEntry } from "./get-feature-catalog-entry.ts";

export const featureCodeTaken = (code: string) =>
  new AppError("feature.code_taken", `A feature catalog entry with code ${code} already exists.`);

export async function createFeatureCatalogEntry(ctx: DomainContext, input: TFeatureCatalogCreateRequest) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      if (input.productId) {
        const product = await tx.product.findUnique({
          where: { id: input.productId },
          select: { isDeleted: true },
        });
        if (!product || product.isDeleted)
          throw validationError("productId names no product.", [
            { path: "productId", message: "No such product." },
          ]);
      }
      const row = await tx.featureCatalogEntry.create({
        data: {
          tenantId: ctx.tenantId,
          productId: input.productId,
          featureCode: input.featureCode,
          activeCodeKey: input.featureCode,
          name: input.name,
          units: input.units || null,
          metricName: input.metricName,
          featureType: input.featureType,
          lifecycleStatus: input.lifecycleStatus,
          visibility: input.visibility,
          meterAggregationType: input.meterAggregationType,
          valueScore: input.valueScore,
          enumOptions:
            input.featureType === "Enumeration"
              ? input.enumOptions!.map((o) => ({ value: o.value, description: o.description }))
              : undefined,
        },
      });
      await setRecordTags(tx, ctx.tenantId, "FeatureCatalog", row.id, input.tags);
      return getFeatureCatalogEntry({ ...ctx, db: tx }, row.id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw featureCodeTaken(input.featureCode);
    throw error;
  }
}
