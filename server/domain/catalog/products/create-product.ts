import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TProductCreateRequest } from "./product.schemas.ts";
import { setRecordTags } from "../tags/record-tags.ts";
import { loadProduct } from "./product-response.ts";
import { checkParentProduct, productCodeKey, productCodeTaken, toStoredProperties } from "./product-rules.ts";

export async function createProduct(ctx: DomainContext, input: TProductCreateRequest) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      if (input.parentProductId) await checkParentProduct(tx, null, input.parentProductId);
      const row = await tx.product.create({
        data: {
          tenantId: ctx.tenantId,
          status: input.status ?? "Draft",
          name: input.name,
          description: input.description,
          productCode: input.productCode,
          productVersion: input.productVersion,
          activeCodeKey: productCodeKey(input.productCode, input.productVersion),
          expirationDate: input.expirationDate ? new Date(input.expirationDate) : null,
          externalId: input.externalId || null,
          propertyValues: toStoredProperties(input.propertyValues),
          isLocked: input.isLocked,
          applicationScopes: [...new Set(input.applicationScopes)],
          parentProductId: input.parentProductId ?? null,
        },
      });
      await setRecordTags(tx, ctx.tenantId, "Product", row.id, input.tags);
      return (await loadProduct(tx, row.id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw productCodeTaken(input.productCode, input.productVersion);
    throw error;
  }
}
