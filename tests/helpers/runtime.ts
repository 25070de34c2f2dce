import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { insertEntitlement, type EntitlementFixtureFields } from "./licensing-fixtures.ts";
import { request, type ApiResponse, type TestTenant } from "./api.ts";

export const ACTIVATIONS = "/api/v1/provision/activations";

/**
 * A Published entitlement (made by the entitlement domain function, tests/helpers/licensing-fixtures.ts)
 * and one activation code issued through the operational API. Seats default to 5, node-locked, lease 1 h.
 */
export async function licensedEntitlement(
  tenant: TestTenant,
  fields: EntitlementFixtureFields = {},
  code: { deviceLimit?: number | null } = {},
) {
  const entitlement = await insertEntitlement(tenant, {
    name: `License ${randomUUID().slice(0, 8)}`,
    description: "A test license",
    ...fields,
  });
  const codeToken = await tenant.token("provision.activation-code.*");
  const issued = await request(
    "POST",
    `/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`,
    {
      token: codeToken,
      body: code.deviceLimit === undefined ? {} : { deviceLimit: code.deviceLimit },
    },
  );
  expect(issued.status, issued.text).toBe(200);
  return {
    entitlement,
    code: issued.body.codes[0].code as string,
    codeId: issued.body.codes[0].id as string,
  };
}

export const activateJwt = (
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> => request("POST", `${ACTIVATIONS}/jwt`, { body, headers });

export const activateLicense = (
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<ApiResponse> => request("POST", `${ACTIVATIONS}/license`, { body, headers });

/** The claims of a license token, unverified (tests verify separately against the JWKS). */
export const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));

export const sessionCall = (op: "renew" | "check-in" | "release", sessionId: string, token: string) =>
  request("POST", `${ACTIVATIONS}/${sessionId}/${op}`, { token });

/** Activates and answers the token and its session id, asserting success. */
export async function activated(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await activateJwt(body, headers);
  expect(res.status, res.text).toBe(200);
  const token = res.body as string;
  return { token, sessionId: claimsOf(token).sub as string, claims: claimsOf(token) };
}
