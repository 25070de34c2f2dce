import type { SectionName } from "../snapshot/sections.ts";
import type { SectionImporter } from "./import-section.ts";
import { tagsImporter } from "./import-tags.ts";
import { productsImporter } from "./import-products.ts";
import { featureCatalogImporter } from "./import-feature-catalog.ts";
import { monitoredAssetsImporter } from "./import-monitored-assets.ts";
import { suitesImporter } from "./import-suites.ts";
import { planSetsImporter } from "./import-plan-sets.ts";
import { addOnsImporter } from "./import-add-ons.ts";
import { offersImporter } from "./import-offers.ts";
import { ratingCampaignsImporter } from "./import-rating-campaigns.ts";

/** Every section's importer, by section name. */
export const sectionImporters: { [S in SectionName]: SectionImporter<S> } = {
  tags: tagsImporter,
  products: productsImporter,
  featureCatalog: featureCatalogImporter,
  monitoredAssets: monitoredAssetsImporter,
  suites: suitesImporter,
  plans: planSetsImporter,
  addOns: addOnsImporter,
  entitlementOffers: offersImporter,
  ratingCampaigns: ratingCampaignsImporter,
};
