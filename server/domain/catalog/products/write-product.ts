import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TProductStatus } from "./product.schemas.ts";
import { setRecordTags } from "../tags/record-tags.ts";
import { loadProduct, type ProductRow } from "./product-response.ts";
import {
  checkParentProduct,
  checkStatusMove,
  productCodeKey,
  productCodeTaken,
  type StoredProperty,
} from "./product-rules.ts";
import { productLocked } from "./product-lock.ts";

/** The product's own columns an edit may set; undefined leaves a column as it is. */
export type ProductChanges = {
  status?: TProductStatus;
  name?: string;
  description?: string;
  productCode?: string;
  productVersion?: string;
  expirationDate?: Date | null;
  externalId?: string | null;
  propertyValues?: Record<string, StoredProperty>;
  isLocked?: boolean;
  applicationScopes?: string[];
  parentProductId?: string | null;
};

/**
 * Applies an edit (PUT or PATCH) to a live product: locked products refuse every change except
 * the one that unlocks them, status moves follow the allowed moves, the parent may not form a
 * cycle, code + version stay unique. With `revisionNumber` the edit applies to that revision
 * only (optimistic concurrency; stale → 409).
 */
export async function writeProduct(
  ctx: DomainContext,
  id: string,
  build: (current: ProductRow) => ProductChanges,
  options: { tags: readonly string[] | null | undefined; revisionNumber?: number },
) {
  let attempted: { productCode: string; productVersion: string } | undefined;
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const current = await tx.product.findUnique({ where: { id } });
      if (!current || current.isDeleted) throw notFound("Product");
      const changes = build(current);
      const changed = Object.entries(changes).some(
        ([key, value]) => value !== undefined && !sameValue(current[key as keyof ProductRow], value),
      );
      const unlocking = changes.isLocked === false;
      if (current.isLocked && !unlocking && (changed || options.tags != null)) throw productLocked();
      if (changes.status) checkStatusMove(current.status, changes.status);
      if (changes.parentProductId) await checkParentProduct(tx, id, changes.parentProductId);

      const productCode = changes.productCode ?? current.productCode;
      const productVersion = changes.productVersion ?? current.productVersion;
      attempted = { productCode, productVersion };
      const { count } = await tx.product.updateMany({
        where: {
          id,
          isDeleted: false,
          ...(options.revisionNumber ? { revisionNumber: options.revisionNumber } : {}),
        },
        data: {
          ...definedOnly(changes),
          activeCodeKey: productCodeKey(productCode, productVersion),
          revisionNumber: { increment: 1 },
        },
      });
      if (count === 0) {
        throw new AppError(
          "concurrency.revision_mismatch",
          `The product was changed since revision ${options.revisionNumber}; reload it and try again.`,
        );
      }
      await setRecordTags(tx, ctx.tenantId, "Product", id, options.tags);
      return (await loadProduct(tx, id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error) && attempted)
      throw productCodeTaken(attempted.productCode, attempted.productVersion);
    throw error;
  }
}

function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return (a as Date | null)?.getTime?.() === (b as Date | null)?.getTime?.();
  return JSON.stringify(a) === JSON.stringify(b);
}
