import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Prisma } from "../../server/db/generated/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/key-issuance-policy.schemas.ts";
import { request, testDb, type ApiResponse, type TestTenant } from "./api.ts";

export const ACTIVATIONS = "/api/v1/provision/activations";

type EntitlementFields = Partial<Omit<Prisma.EntitlementUncheckedCreateInput, "tenantId" | "claimBasedActivation" | "activationPolicy">> & {
  claimBasedActivation?: Record<string, unknown>;
  activationPolicy?: Record<string, unknown>;
};

/**
 * A Published entitlement (written directly; its API is covered by the entitlement tests) and one
 * activation code issued through the operational API. Seats default to 5, node-locked, lease 1 h.
 */
export async function licensedEntitlement(tenant: TestTenant, fields: EntitlementFields = {}, code: { deviceLimit?: number | null } = {}) {
  const { claimBasedActivation, activationPolicy, ...rest } = fields;
  const entitlement = await tenantDb(testDb(), tenant.tenantId).entitlement.create({
    data: {
      tenantId: tenant.tenantId,
      name: `License ${randomUUID().slice(0, 8)}`,
      description: "A test license",
      features: [],
      activationPolicy: { ...activationPolicy } as Prisma.InputJsonObject,
      claimBasedActivation: { leaseTime: "PT1H", gracePeriod: "P1D", numberOfSeats: 5, isFloatingLicense: false, ...claimBasedActivation } as Prisma.InputJsonObject,
      keyIssuancePolicy: defaultKeyIssuancePolicy(),
      productIds: [],
      ...rest,
    },
  });
  const codeToken = await tenant.token("provision.activation-code.*");
  const issued = await request("POST", `/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`, {
    token: codeToken,
    body: code.deviceLimit === undefined ? {} : { deviceLimit: code.deviceLimit },
  });
  expect(issued.status, issued.text).toBe(200);
  return { entitlement, code: issued.body.codes[0].code as string, codeId: issued.body.codes[0].id as string };
}

export const activateJwt = (body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  request("POST", `${ACTIVATIONS}/jwt`, { body, headers });

export const activateLicense = (body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  request("POST", `${ACTIVATIONS}/license`, { body, headers });

/** The claims of a license token, unverified (tests verify separately against the JWKS). */
export const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));

export const sessionCall = (op: "renew" | "check-in" | "release", sessionId: string, token: string) => request("POST", `${ACTIVATIONS}/${sessionId}/${op}`, { token });

/** Activates and answers the token and its session id, asserting success. */
export async function activated(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await activateJwt(body, headers);
  expect(res.status, res.text).toBe(200);
  const token = res.body as string;
  return { token, sessionId: claimsOf(token).sub as string, claims: claimsOf(token) };
}
