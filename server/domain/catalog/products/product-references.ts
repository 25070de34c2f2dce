import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TProductReferencedBy } from "./product.schemas.ts";

const zero = (): TProductReferencedBy => ({
  entitlements: 0,
  offers: 0,
  suites: 0,
  planSets: 0,
  features: 0,
});

/**
 * docs/api.md Product.referencedBy, counted from the rows that refer to each product:
 * - entitlements / offers: distinct live (not Archived) entitlements / offers that list the
 *   product among their productIds or hold a copy of one of its monitored assets;
 * - suites: suites the product is a member of (implicit ones included);
 * - planSets: plan-set revisions with a line item for the product (every status);
 * - features: live feature catalog entries whose productId is the product.
 */
export async function productReferencedBy(
  db: TenantDbOrTx,
  productIds: readonly string[],
): Promise<Map<string, TProductReferencedBy>> {
  const result = new Map(productIds.map((id) => [id, zero()]));
  if (!productIds.length) return result;
  const ids = [...productIds];
  const [copies, suites, lineItems, features, entitlements, offers] = await Promise.all([
    db.monitoredAsset.findMany({
      where: { productId: { in: ids }, ownerKind: { in: ["Entitlement", "Offer"] } },
      select: { productId: true, ownerKind: true, ownerId: true },
      distinct: ["productId", "ownerKind", "ownerId"],
    }),
    db.suiteMember.groupBy({ by: ["productId"], where: { productId: { in: ids } }, _count: { _all: true } }),
    db.usagePlanLineItem.findMany({
      where: { productId: { in: ids } },
      select: { productId: true, planSetId: true },
      distinct: ["productId", "planSetId"],
    }),
    db.featureCatalogEntry.groupBy({
      by: ["productId"],
      where: { productId: { in: ids }, isDeleted: false },
      _count: { _all: true },
    }),
    db.entitlement.findMany({
      where: { productIds: { hasSome: ids }, status: { not: "Archived" } },
      select: { id: true, productIds: true },
    }),
    db.offer.findMany({
      where: { productIds: { hasSome: ids }, status: { not: "Archived" } },
      select: { id: true, productIds: true },
    }),
  ]);
  const owners = new Map(
    ids.map((id) => [id, { entitlements: new Set<string>(), offers: new Set<string>() }]),
  );
  for (const c of copies)
    owners.get(c.productId!)?.[c.ownerKind === "Entitlement" ? "entitlements" : "offers"].add(c.ownerId);
  for (const e of entitlements) for (const p of e.productIds) owners.get(p)?.entitlements.add(e.id);
  for (const o of offers) for (const p of o.productIds) owners.get(p)?.offers.add(o.id);
  for (const [id, sets] of owners) {
    result.get(id)!.entitlements = sets.entitlements.size;
    result.get(id)!.offers = sets.offers.size;
  }
  for (const s of suites) result.get(s.productId)!.suites = s._count._all;
  for (const l of lineItems) result.get(l.productId)!.planSets += 1;
  for (const f of features) if (f.productId) result.get(f.productId)!.features = f._count._all;
  return result;
}

/** The references that keep a product from being deleted: everything but its own catalog entries. */
export function blockingProductReferences(counts: TProductReferencedBy): string[] {
  const blocking: string[] = [];
  if (counts.entitlements) blocking.push(`${counts.entitlements} entitlement(s)`);
  if (counts.offers) blocking.push(`${counts.offers} offer(s)`);
  if (counts.suites) blocking.push(`${counts.suites} suite(s)`);
  if (counts.planSets) blocking.push(`${counts.planSets} plan set revision(s)`);
  return blocking;
}
