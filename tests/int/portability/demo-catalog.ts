import type { DomainContext } from "../../../server/domain/context.ts";
import { createTag } from "../../../server/domain/catalog/tags/create-tag.ts";
import { seedCatalogProducts } from "../../../scripts/seed/catalog-products.ts";
import { seedCatalogPricing } from "../../../scripts/seed/catalog-pricing.ts";
import { seedEntitlements } from "../../../scripts/seed/entitlements.ts";

/**
 * The demo catalog `npm run seed` makes (through the same seed functions), for the integration and
 * e2e tests of export and import: tags, feature catalog, two products with features and monitored
 * assets, a suite with a published plan set, an add-on, a rating campaign and a published offer
 * (with an entitlement made from it, which no export carries).
 */
export async function seedDemoCatalogInto(ctx: DomainContext): Promise<void> {
  await createTag(ctx, { scope: "Product", name: "Desktop", color: "#2563eb" });
  await createTag(ctx, { scope: "Offer", name: "Partner channel", color: "#db2777" });
  await seedCatalogProducts(ctx);
  const products = await ctx.db.product.findMany({
    where: { isDeleted: false },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 2,
    select: { id: true, name: true },
  });
  const pricing = await seedCatalogPricing(ctx, products);
  await seedEntitlements(ctx, pricing?.suiteId ?? null, "nobody@example.com");
}
