import type { z } from "zod";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { productStatusMoves, type TProductStatus, type ZProperty } from "./product.schemas.ts";

type PropertyInput = z.output<typeof ZProperty>;
export type StoredProperty = {
  key: string;
  value: string;
  metadata: { key: string; value: string }[];
  visibility: "Public" | "Private";
};

/** The unique key of a live product: codes compare case-insensitively, versions exactly. */
export const productCodeKey = (productCode: string, productVersion: string) =>
  `${productCode.toLowerCase()}@${productVersion}`;

export const productCodeTaken = (productCode: string, productVersion: string) =>
  new AppError(
    "product.code_taken",
    `A product ${productCode}${productVersion ? ` version ${productVersion}` : " without a version"} already exists (codes are unique regardless of case, per version).`,
  );

/** Each property stored with its key (the map name unless given) and explicit defaults. */
export function toStoredProperty(name: string, property: PropertyInput): StoredProperty {
  return {
    key: property.key ?? name,
    value: property.value,
    metadata: property.metadata.map((m) => ({ key: m.key, value: m.value })),
    visibility: property.visibility,
  };
}

export function toStoredProperties(map: Record<string, PropertyInput>): Record<string, StoredProperty> {
  return Object.fromEntries(Object.entries(map).map(([name, p]) => [name, toStoredProperty(name, p)]));
}

export function checkStatusMove(from: string, to: TProductStatus): void {
  if (from === to) return;
  const allowed = productStatusMoves[from as TProductStatus] ?? [];
  if (!allowed.includes(to)) {
    throw new AppError(
      "product.invalid_status_transition",
      `A product cannot move from ${from} to ${to}; from ${from} it can move to ${allowed.join(" or ") || "nothing (final status)"}.`,
    );
  }
}

/**
 * A parent must be a live product of the tenant, not the product itself nor one of its
 * descendants (no cycles).
 */
export async function checkParentProduct(
  db: TenantDbOrTx,
  productId: string | null,
  parentProductId: string,
): Promise<void> {
  const invalid = (message: string) => validationError(message, [{ path: "parentProductId", message }]);
  if (parentProductId === productId) throw invalid("A product cannot be its own parent.");
  let cursor: string | null = parentProductId;
  for (let depth = 0; cursor && depth < 50; depth++) {
    const row: { id: string; isDeleted: boolean; parentProductId: string | null } | null =
      await db.product.findUnique({
        where: { id: cursor },
        select: { id: true, isDeleted: true, parentProductId: true },
      });
    if (!row || (depth === 0 && row.isDeleted)) throw invalid("parentProductId names no product.");
    if (productId && row.parentProductId === productId)
      throw invalid("That parent is a descendant of this product (a cycle).");
    cursor = row.parentProductId;
  }
}
