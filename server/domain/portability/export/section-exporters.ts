import type { SectionName } from "../snapshot/sections.ts";
import type { SectionExporter } from "./section-exporter.ts";
import { tagsExporter } from "./export-tags.ts";
import { productsExporter } from "./export-products.ts";
import { featureCatalogExporter } from "./export-feature-catalog.ts";
import { monitoredAssetsExporter } from "./export-monitored-assets.ts";
import { suitesExporter } from "./export-suites.ts";
import { planSetsExporter } from "./export-plan-sets.ts";
import { addOnsExporter } from "./export-add-ons.ts";
import { offersExporter } from "./export-offers.ts";
import { ratingCampaignsExporter } from "./export-rating-campaigns.ts";

/** Every section's reader, by section name. */
export const sectionExporters: { [S in SectionName]: SectionExporter<S> } = {
  tags: tagsExporter,
  products: productsExporter,
  featureCatalog: featureCatalogExporter,
  monitoredAssets: monitoredAssetsExporter,
  suites: suitesExporter,
  plans: planSetsExporter,
  addOns: addOnsExporter,
  entitlementOffers: offersExporter,
  ratingCampaigns: ratingCampaignsExporter,
};
