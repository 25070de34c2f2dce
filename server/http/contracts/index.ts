import type { Contract } from "../contract.ts";
import * as tags from "./catalog/tags.ts";
import * as products from "./catalog/products.ts";
import * as featureCatalog from "./catalog/feature-catalog.ts";
import * as monitoredAssets from "./catalog/monitored-assets.ts";
import * as webhooks from "./webhooks/webhooks.ts";
import * as suites from "./pricing/suites.ts";
import * as planSets from "./pricing/plan-sets.ts";
import * as addOns from "./pricing/add-ons.ts";
import * as ratingCampaigns from "./catalog/rating-campaigns.ts";
import * as offers from "./entitlements/offers.ts";
import * as entitlements from "./entitlements/entitlements.ts";
import * as customers from "./customers/customers.ts";
import * as planChanges from "./entitlements/plan-changes.ts";
import * as addOnGrants from "./entitlements/add-on-grants.ts";
import * as billing from "./entitlements/billing.ts";
import * as activationCodes from "./licensing/activation-codes.ts";
import * as devices from "./licensing/devices.ts";
import * as balances from "./metering/balances.ts";
import * as usage from "./metering/usage.ts";
import * as jwks from "./licensing/jwks.ts";
import * as activations from "./licensing/activations.ts";
import * as offlineActivations from "./licensing/offline-activations.ts";
import * as sessions from "./licensing/sessions.ts";
import * as portabilityCatalog from "./portability/catalog.ts";
import * as entitlementLifecycle from "./entitlements/entitlement-lifecycle.ts";
import * as anonymousTry from "./entitlements/anonymous-try.ts";
import * as reports from "./reports/reports.ts";
import * as auditEvents from "./audit/audit-events.ts";

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
  ...Object.values(usage),
  ...Object.values(jwks),
  ...Object.values(activations),
  ...Object.values(offlineActivations),
  ...Object.values(sessions),
  ...Object.values(portabilityCatalog),
  ...Object.values(entitlementLifecycle),
  ...Object.values(anonymousTry),
  ...Object.values(reports),
  ...Object.values(auditEvents),
];
