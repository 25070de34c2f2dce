/**
 * The sections of a catalog snapshot (docs/api.md "Catalog snapshot"), in dependency order: every
 * section refers only to sections before it, except the two cycles the importer resolves itself
 * (a product's features name catalog entries, which name the product they were made for; an
 * offer's add-on grant may name a rating campaign, which names offers).
 */
export const sectionNames = [
  "tags",
  "products",
  "featureCatalog",
  "monitoredAssets",
  "suites",
  "plans",
  "addOns",
  "entitlementOffers",
  "ratingCampaigns",
] as const;
export type SectionName = (typeof sectionNames)[number];

/** Entity kinds of the references map: one per section, plus what offers name outside the catalog. */
export const referenceKinds = [
  "Tag",
  "Product",
  "FeatureCatalogEntry",
  "MonitoredAsset",
  "Suite",
  "PlanSet",
  "AddOn",
  "Offer",
  "RatingCampaign",
  "CustomerOrganization",
] as const;
export type ReferenceKind = (typeof referenceKinds)[number];

export const kindOfSection: Record<SectionName, ReferenceKind> = {
  tags: "Tag",
  products: "Product",
  featureCatalog: "FeatureCatalogEntry",
  monitoredAssets: "MonitoredAsset",
  suites: "Suite",
  plans: "PlanSet",
  addOns: "AddOn",
  entitlementOffers: "Offer",
  ratingCampaigns: "RatingCampaign",
};

export const sectionOfKind: Partial<Record<ReferenceKind, SectionName>> = Object.fromEntries(
  sectionNames.map((s) => [kindOfSection[s], s]),
);

export const sectionLabels: Record<SectionName, string> = {
  tags: "Tags",
  products: "Products",
  featureCatalog: "Feature catalog",
  monitoredAssets: "Monitored assets",
  suites: "Suites",
  plans: "Plan sets",
  addOns: "Add-ons",
  entitlementOffers: "Offers",
  ratingCampaigns: "Rating campaigns",
};

/** docs/api.md reference `presence`: why an id is (or is not) in the file. */
export const presenceValues = [
  /** Selected by the export request. */
  "Explicit",
  /** Not selected, included because a selected item needs it (includeDependencies). */
  "Dependency",
  /** Exists in the source tenant but left out of the file (a strict slice); matched by natural key on import. */
  "Excluded",
  /** Names nothing live in the source tenant (deleted, or never existed); kept so nothing is silently dropped. */
  "Missing",
] as const;
export type Presence = (typeof presenceValues)[number];
