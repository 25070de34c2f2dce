import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { loadProduct } from "./product-response.ts";

/** A product by id, including a soft-deleted one (it reads `isDeleted: true`). */
export async function getProduct(ctx: DomainContext, id: string) {
  const product = await loadProduct(ctx.db, id);
  if (!product) throw notFound("Product");
  return product;
}
