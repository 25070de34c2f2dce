import type { DomainContext } from "../../context.ts";
import type { TProductReplaceRequest } from "./product.schemas.ts";
import { toStoredProperties } from "./product-rules.ts";
import { writeProduct } from "./write-product.ts";

/**
 * PUT /admin/products/{id}: replaces the product's own editable fields; an optional field left
 * out takes its default (no expiration, no external id, no parent, no properties, unlocked).
 * `status` left out keeps the current status; tags follow the tags-on-records rule.
 */
export async function replaceProduct(ctx: DomainContext, id: string, input: TProductReplaceRequest) {
  return writeProduct(
    ctx,
    id,
    () => ({
      status: input.status,
      name: input.name,
      description: input.description,
      productCode: input.productCode,
      productVersion: input.productVersion,
      expirationDate: input.expirationDate ? new Date(input.expirationDate) : null,
      externalId: input.externalId || null,
      propertyValues: toStoredProperties(input.propertyValues),
      isLocked: input.isLocked,
      applicationScopes: [...new Set(input.applicationScopes)],
      parentProductId: input.parentProductId ?? null,
    }),
    { tags: input.tags, revisionNumber: input.revisionNumber },
  );
}
