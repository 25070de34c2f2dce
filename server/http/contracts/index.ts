import type { Contract } from "../contract.ts";
import * as tags from "./tags.ts";
import * as products from "./products.ts";
import * as featureCatalog from "./feature-catalog.ts";
import * as monitoredAssets from "./monitored-assets.ts";
import * as webhooks from "./webhooks.ts";
import * as suites from "./suites.ts";
import * as planSets from "./plan-sets.ts";
import * as addOns from "./add-ons.ts";
import * as ratingCampaigns from "./rating-campaigns.ts";

/** Every REST contract, for the OpenAPI document. A test proves each route file is listed. */
export const allContracts: Contract[] = [
  ...Object.values(tags),
  ...Object.values(products),
  ...Object.values(featureCatalog),
  ...Object.values(monitoredAssets),
  ...Object.values(webhooks),
  ...Object.values(suites),
  ...Object.values(planSets),
  ...Object.values(addOns),
  ...Object.values(ratingCampaigns),
];
