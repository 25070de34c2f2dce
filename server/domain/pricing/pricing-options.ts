import type { DomainContext } from "../context.ts";
import { notFound } from "../../core/errors.ts";
import {} from "../catalog/pricing-lookups.ts";
import { balanceMetricNames } from "../catalog/monitored-assets/monitored-asset-rules.ts";

/**
 * Pickers of the pricing screens (suites, plan sets, add-ons, rating campaigns): live products and
 * catalog entries matching a search, and the credit balances a suite's tiers can draw on.
 */
export async function searchPricingProducts(ctx: DomainContext, term: string) {
  const contains = term.trim();
  return ctx.db.product.findMany({
    where: {
      isDeleted: false,
      ...(contains
        ? {
            OR: [
              { name: { contains, mode: "insensitive" as const } },
              { productCode: { contains, mode: "insensitive" as const } },
            ],
          }
        : {}),
    },
    orderBy: [{ name: "asc" }, { productCode: "asc" }, { id: "asc" }],
    take: 50,
    select: { id: true, productCode: true, productVersion: true, name: true },
  });
}

export async function searchPricingFeatures(ctx: DomainContext, term: string) {
  const contains = term.trim();
  const rows = await ctx.db.featureCatalogEntry.findMany({
    where: {
      isDeleted: false,
      ...(contains
        ? {
            OR: [
              { name: { contains, mode: "insensitive" as const } },
              { featureCode: { contains, mode: "insensitive" as const } },
            ],
          }
        : {}),
    },
    orderBy: [{ featureCode: "asc" }, { id: "asc" }],
    take: 100,
    select: {
      id: true,
      featureCode: true,
      name: true,
      units: true,
      metricName: true,
      featureType: true,
      enumOptions: true,
    },
  });
  return rows.map((r) => ({
    ...r,
    enumOptions: Array.isArray(r.enumOptions)
      ? (r.enumOptions as { value: string }[]).map((o) => String(o.value))
      : [],
  }));
}

export async function suiteBalanceMetrics(ctx: DomainContext, suiteId: string) {
  const suite = await ctx.db.suite.findUnique({
    where: { id: suiteId },
    select: { members: { select: { productId: true } } },
  });
  if (!suite) throw notFound("Suite");
  return balanceMetricNames(
    ctx.db,
    suite.members.map((m) => m.productId),
  );
}
