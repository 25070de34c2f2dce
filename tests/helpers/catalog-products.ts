import { expect } from "vitest";
import { request } from "./api.ts";

export const PRODUCTS = "/api/v1/provision/admin/products";
export const FEATURES = "/api/v1/provision/admin/feature-catalog";
export const ASSETS = "/api/v1/provision/admin/monitored-assets";
export const BALANCES = "/api/v1/provision/admin/asset-balances";

let counter = 0;
/** A code unique within the test run. */
export const uniqueCode = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Creates a product over HTTP (201 expected). */
export async function makeProduct(token: string, body: Record<string, unknown> = {}) {
  const res = await request("POST", PRODUCTS, {
    token,
    body: { name: "Product", productCode: uniqueCode("P"), productVersion: "1.0", ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Creates a feature catalog entry over HTTP (201 expected). */
export async function makeFeature(token: string, body: Record<string, unknown> = {}) {
  const res = await request("POST", FEATURES, {
    token,
    body: { featureCode: uniqueCode("F"), name: "Feature", featureType: "Boolean", ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Adds a monitored asset to a product over HTTP (201 expected). */
export async function makeAsset(token: string, productId: string, body: Record<string, unknown> = {}) {
  const res = await request("POST", `${PRODUCTS}/${productId}/monitored-assets`, {
    token,
    body: { metricName: uniqueCode("m").toLowerCase(), name: "Metric", ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
