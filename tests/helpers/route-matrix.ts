import type { Contract } from "../../server/http/contract.ts";
import { PROVISION } from "./tenant-world.ts";

/**
 * What the generated route sweeps need to call any /provision route with a tenant's own ids
 * (tests/int/platform/provision-route-matrix.int.test.ts, tests/hardening/*): the id each path
 * parameter takes, a query and a body that pass the route's schema. A route the tables do not
 * know fails loudly, so a new route is added here rather than skipped.
 */
export const paramsOf = (c: Contract) => [...c.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

export type OwnerIds = Record<string, string>;

/** Which of the owner's ids a path parameter takes, by the segment before it. */
export function ownerIdFor(c: Contract, name: string, ids: OwnerIds): string {
  const segment = c.path.match(new RegExp(`/([\\w-]+)/\\{${name}\\}`))?.[1];
  const key = name === "grantId" ? (c.path.includes("/offers/") ? "offerGrant" : "entitlementGrant") : null;
  const bySegment: Record<string, string> = {
    "tags/id": "tag",
    "products/id": "product",
    "features/featureId": "productFeature",
    "feature-catalog/id": "feature",
    "asset-balances/balanceId": "balance",
    "monitored-assets/id": "asset",
    "suites/suiteId": "suite",
    "members/productId": "product",
    "plan-sets/planSetId": "planSet",
    "add-ons/addOnId": "addOn",
    "features/featureCatalogId": "feature",
    "rating-campaigns/id": "campaign",
    "offers/id": "offer",
    "entitlements/id": "entitlement",
    "organizations/id": "organization",
    "users/id": "customerUser",
    "plan-change-requests/id": "planChangeRequest",
    "activation-codes/code": "activationCode",
    "devices/deviceId": "device",
    "balances/metricName": "metricName",
    "activations/sessionId": "session",
    "sessions/sessionId": "session",
    "by-user/userId": "customerUser",
  };
  // The usage routes name a session, an entitlement and a metric wherever they stand in the path.
  const byName: Record<string, string> = {
    sessionId: "session",
    entitlementId: "entitlement",
    metric: "metricName",
  };
  const which = key ?? bySegment[`${segment}/${name}`] ?? byName[name];
  const id = which ? ids[which] : undefined;
  if (!id) throw new Error(`The route matrix has no owner id for {${name}} in ${c.path}: add one above.`);
  return id;
}

const usageRecord = (ids: OwnerIds) => ({
  transactionId: 1,
  sessionId: ids.session,
  apiVersion: 1,
  creationDateTime: new Date().toISOString(),
  eventName: "MatrixEvent",
  eventData: JSON.stringify({ metricName: ids.metricName, amount: 1 }),
});

/** Query strings for routes whose query has required fields, so 404 or 401 is not hidden by 400. */
export function queryFor(c: Contract): string {
  if (!c.query || c.query.safeParse({}).success) return "";
  const samples: Record<string, string> = {
    "POST /usage/consume/{sessionId}/{metric}": "?amount=1",
  };
  const key = `${c.method} /${c.path.slice(PROVISION.length)}`;
  if (!(key in samples))
    throw new Error(`The route matrix needs a sample query for ${key}: add one to queryFor.`);
  return samples[key];
}

/** Bodies that pass each route's schema (an empty body where it does), so 404 is not hidden by 400. */
export function bodyFor(c: Contract, ids: OwnerIds): unknown {
  if (!["POST", "PUT", "PATCH"].includes(c.method) || !c.body) return undefined;
  const samples: Record<string, unknown> = {
    "POST /admin/tags/{id}/merge": { intoTagId: ids.otherTag },
    "POST /admin/products/{id}/features": { featureCatalogId: ids.feature },
    "POST /admin/products/{id}/monitored-assets": { metricName: "matrix-metric", name: "Matrix" },
    "PUT /admin/products/{id}": { name: "Matrix", productCode: "MATRIX", productVersion: "" },
    "PUT /admin/feature-catalog/{id}/code": { featureCode: "MATRIX_CODE" },
    "PUT /admin/feature-catalog/{id}": { name: "Matrix", featureType: "Boolean" },
    "PUT /admin/feature-catalog/{id}/lifecycle": { lifecycleStatus: "Archived" },
    "POST /admin/suites/{suiteId}/members": { productIds: [ids.product] },
    "PUT /admin/usage-plans/plan-sets/{planSetId}/status": { status: "Archived" },
    "PUT /admin/usage-plans/plan-sets/{planSetId}": { name: "Matrix" },
    "PUT /admin/usage-plans/add-ons/{addOnId}": { code: "MATRIX", name: "Matrix" },
    "PUT /admin/rating-campaigns/{id}": { name: "Matrix", isEnabled: false },
    "PUT /admin/offers/{id}": { name: "Matrix" },
    "PUT /admin/entitlements/{id}/plan": { planSetId: ids.planSet, planName: "Pro" },
    "POST /consumer/me/entitlements/{id}/plan-change-requests": { planName: "Pro" },
    "POST /admin/plan-change-requests/{id}/review": { approved: false },
    "POST /admin/entitlements/{id}/add-on-grants": { addOnId: ids.addOn },
    "POST /admin/offers/{id}/add-on-grants": { addOnId: ids.addOn },
    "POST /admin/entitlements/{id}/billing/manual-events": { state: "Active" },
    "POST /operational/entitlements/{id}/devices/block": { fingerprint: "matrix-fingerprint" },
    "POST /operational/entitlements/{id}/devices": { fingerprint: "matrix-fingerprint" },
    "POST /operational/entitlements/{id}/balances/{metricName}/deposit": { amount: 1 },
    "POST /operational/entitlements/{id}/balances/{metricName}/set": { amount: 1 },
    "POST /operational/entitlements/{id}/balances/{metricName}/withdraw": { amount: 1 },
    "POST /consumer/me/entitlements/{id}/credit-grants": { metricName: ids.metricName, amount: 1 },
    "POST /operational/entitlements/{id}/renew": { expirationDateTime: "2099-01-01T00:00:00Z" },
    "POST /operational/entitlements/{id}/convert": { convertedToEntitlementId: ids.entitlement },
    "POST /usage/sessions/{sessionId}/transactions": [usageRecord(ids)],
    "POST /usage/entitlements/{entitlementId}/transactions": [usageRecord(ids)],
    "POST /usage/sessions/{sessionId}/rating-prompt/answers": {
      campaignId: ids.campaign,
      featureCatalogId: ids.feature,
      rating: 3,
    },
    // Routes without path parameters get only 401/403, which come before the body is read.
  };
  const key = `${c.method} /${c.path.slice(PROVISION.length)}`;
  const body = key in samples ? samples[key] : {};
  if (paramsOf(c).length && !c.body.safeParse(body).success)
    throw new Error(`The route matrix needs a valid sample body for ${key}: add one to bodyFor.`);
  return body;
}
