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
import * as offers from "./offers.ts";
import * as entitlements from "./entitlements.ts";
import * as customers from "./customers.ts";
import * as planChanges from "./plan-changes.ts";
import * as addOnGrants from "./add-on-grants.ts";
import * as billing from "./billing.ts";
import * as activationCodes from "./activation-codes.ts";
import * as devices from "./devices.ts";
import * as balances from "./balances.ts";
import * as jwks from "./jwks.ts";
import * as activations from "./activations.ts";
import * as offlineActivations from "./offline-activations.ts";
import * as sessions from "./sessions.ts";

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
  ...Object.values(offers),
  ...Object.values(entitlements),
  ...Object.values(customers),
  ...Object.values(planChanges),
  ...Object.values(addOnGrants),
  ...Object.values(billing),
  ...Object.values(activationCodes),
  ...Object.values(devices),
  ...Object.values(balances),
  ...Object.values(jwks),
  ...Object.values(activations),
  ...Object.values(offlineActivations),
  ...Object.values(sessions),
];
