import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TFeatureReferencedBy } from "./feature-catalog.schemas.ts";

/**
 * docs/api.md FeatureCatalogEntry.referencedBy, counted from the rows that refer to the entry:
 * - products: live products with a live feature on the entry;
 * - planSets: plan-set revisions with a feature value under the entry's code;
 * - addOns: add-ons that grant the entry or carry a feature value under its code;
 * - entitlements / offers: distinct holders of a grant (revoked and expired included) of such an
 *   add-on (the entitlements work adds the features entitlements copy from products);
 * - ratingCampaigns: campaigns targeting the entry.
 */
export async function featureReferencedBy(
  db: TenantDbOrTx,
  entry: { id: string; featureCode: string },
): Promise<TFeatureReferencedBy> {
  const addOnWhere = {
    OR: [
      { featureCatalogIds: { has: entry.id } },
      { featureValues: { some: { featureCode: entry.featureCode } } },
    ],
  };
  const [products, planSets, addOns, entitlementGrants, offerGrants, ratingCampaigns] = await Promise.all([
    db.productFeature.findMany({
      where: { featureCatalogId: entry.id, isDeleted: false, product: { isDeleted: false } },
      select: { productId: true },
      distinct: ["productId"],
    }),
    db.usagePlanFeatureValue.findMany({
      where: { featureCode: entry.featureCode },
      select: { planSetId: true },
      distinct: ["planSetId"],
    }),
    db.addOn.count({ where: addOnWhere }),
    db.addOnGrant.findMany({
      where: { entitlementId: { not: null }, addOn: addOnWhere },
      select: { entitlementId: true },
      distinct: ["entitlementId"],
    }),
    db.addOnGrant.findMany({
      where: { offerId: { not: null }, addOn: addOnWhere },
      select: { offerId: true },
      distinct: ["offerId"],
    }),
    db.ratingCampaignTarget.findMany({
      where: { featureCatalogId: entry.id },
      select: { campaignId: true },
      distinct: ["campaignId"],
    }),
  ]);
  return {
    products: products.length,
    entitlements: entitlementGrants.length,
    offers: offerGrants.length,
    planSets: planSets.length,
    addOns,
    ratingCampaigns: ratingCampaigns.length,
  };
}

export const isReferenced = (counts: TFeatureReferencedBy) => Object.values(counts).some((n) => n > 0);

export function referenceIssues(counts: TFeatureReferencedBy) {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => ({ path: `referencedBy.${key}`, message: String(n) }));
}
