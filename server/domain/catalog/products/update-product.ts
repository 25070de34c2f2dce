import type { DomainContext } from "../../context.ts";
import type { TProductUpdateRequest } from "./product.schemas.ts";
import { toStoredProperty } from "./product-rules.ts";
import { writeProduct } from "./write-product.ts";

/**
 * PATCH /admin/products/{id}: merge. Absent or null fields stay; `clearExpirationDate`,
 * `clearExternalId` and `clearParentProductId` clear; `propertyValues` merges by name (a name
 * mapped to null removes that property).
 */
export async function updateProduct(ctx: DomainContext, id: string, input: TProductUpdateRequest) {
  return writeProduct(
    ctx,
    id,
    (current) => ({
      status: input.status ?? undefined,
      name: input.name ?? undefined,
      description: input.description ?? undefined,
      productCode: input.productCode ?? undefined,
      productVersion: input.productVersion ?? undefined,
      expirationDate: input.clearExpirationDate
        ? null
        : input.expirationDate
          ? new Date(input.expirationDate)
          : undefined,
      externalId: input.clearExternalId ? null : (input.externalId ?? undefined),
      propertyValues: input.propertyValues
        ? mergeProperties(current.propertyValues, input.propertyValues)
        : undefined,
      isLocked: input.isLocked ?? undefined,
      applicationScopes: input.applicationScopes ? [...new Set(input.applicationScopes)] : undefined,
      parentProductId: input.clearParentProductId ? null : (input.parentProductId ?? undefined),
    }),
    { tags: input.tags, revisionNumber: input.revisionNumber },
  );
}

function mergeProperties(stored: unknown, patch: NonNullable<TProductUpdateRequest["propertyValues"]>) {
  const merged = { ...(stored as Record<string, ReturnType<typeof toStoredProperty>>) };
  for (const [name, property] of Object.entries(patch)) {
    if (property === null) delete merged[name];
    else merged[name] = toStoredProperty(name, property);
  }
  return merged;
}
