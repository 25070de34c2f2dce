import { createHash, randomUUID } from "node:crypto";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { defaultKeyIssuancePolicy, type TKeyIssuancePolicyInput } from "../../server/domain/entitlements/key-issuance-policy.schemas.ts";
import { testDb, type TestTenant } from "./api.ts";

/**
 * Rows the activation-code, device and balance tests need, written directly: entitlements (part A
 * owns their creation), and license sessions (activation arrives with issue 6).
 */

export const fingerprintHash = (fingerprint: string) => createHash("sha256").update(fingerprint, "utf8").digest("hex");

export async function insertEntitlement(
  tenant: Pick<TestTenant, "tenantId">,
  fields: { keyIssuancePolicy?: TKeyIssuancePolicyInput; status?: string; customerId?: string; customerKind?: string; consumersMayGrantCredits?: boolean; productIds?: string[] } = {},
) {
  const { keyIssuancePolicy, ...rest } = fields;
  return tenantDb(testDb(), tenant.tenantId).entitlement.create({
    data: {
      tenantId: tenant.tenantId,
      name: `Entitlement ${randomUUID().slice(0, 8)}`,
      features: [],
      activationPolicy: {},
      claimBasedActivation: { leaseTime: "PT1H", gracePeriod: "P1D", numberOfSeats: 5, isFloatingLicense: false },
      keyIssuancePolicy: { ...defaultKeyIssuancePolicy(), ...keyIssuancePolicy },
      productIds: [],
      ...rest,
    },
  });
}

/** A device and one active session on it (lease one hour ahead unless given). */
export async function insertSession(
  tenant: Pick<TestTenant, "tenantId">,
  entitlementId: string,
  fields: { fingerprint?: string; activationCodeId?: string | null; leaseExpiresAt?: Date; productIds?: string[] } = {},
) {
  const db = tenantDb(testDb(), tenant.tenantId);
  const hash = fingerprintHash(fields.fingerprint ?? `fp-${randomUUID()}`);
  const device = await db.device.upsert({
    where: { tenantId_entitlementId_fingerprintHash: { tenantId: tenant.tenantId, entitlementId, fingerprintHash: hash } },
    create: { tenantId: tenant.tenantId, entitlementId, fingerprintHash: hash, deviceName: "Test machine" },
    update: {},
  });
  const session = await db.licenseSession.create({
    data: {
      tenantId: tenant.tenantId,
      entitlementId,
      deviceId: device.id,
      activationCodeId: fields.activationCodeId ?? null,
      productIds: fields.productIds ?? [],
      leaseExpiresAt: fields.leaseExpiresAt ?? new Date(Date.now() + 3600_000),
      graceExpiresAt: new Date((fields.leaseExpiresAt?.getTime() ?? Date.now() + 3600_000) + 86_400_000),
      seatHeldUntil: fields.leaseExpiresAt ?? new Date(Date.now() + 3600_000),
      deviceName: "Test machine",
    },
  });
  return { device, session };
}

/** An entitlement's credit balance (a monitored-asset copy with balanceUsage), as part A copies them from products. */
export async function insertEntitlementBalance(
  tenant: Pick<TestTenant, "tenantId">,
  entitlementId: string,
  fields: { metricName?: string; totalCredits?: number; creditsUsed?: number; isUnlimitedCredits?: boolean } = {},
) {
  const db = tenantDb(testDb(), tenant.tenantId);
  const asset = await db.monitoredAsset.create({
    data: {
      tenantId: tenant.tenantId,
      ownerKind: "Entitlement",
      ownerId: entitlementId,
      entitlementId,
      ownerStatus: "Published",
      metricName: fields.metricName ?? "credits",
      name: "Credits",
    },
  });
  const balance = await db.balanceUsage.create({
    data: {
      tenantId: tenant.tenantId,
      monitoredAssetId: asset.id,
      name: "Credits",
      usageQuota: [],
      totalCredits: fields.totalCredits ?? 0,
      creditsUsed: fields.creditsUsed ?? 0,
      cumulativeCreditsUsed: fields.creditsUsed ?? 0,
      isUnlimitedCredits: fields.isUnlimitedCredits ?? false,
    },
  });
  return { asset, balance };
}

/** A portal user with a consumer token, and the CustomerUser that entitlements are assigned to. */
export async function signedInConsumer(tenant: Pick<TestTenant, "tenantId">) {
  const { createUser } = await import("../../server/domain/identity/users.ts");
  const { request } = await import("./api.ts");
  const password = "correct horse battery staple";
  const user = await createUser(testDb(), tenant.tenantId, { email: `user-${randomUUID().slice(0, 8)}@example.com`, password, kind: "consumer" });
  const customer = await testDb().customerUser.create({ data: { tenantId: tenant.tenantId, userId: user.id, email: user.email, roles: [], organizationIds: [] } });
  const res = await request("POST", "/auth/connect/token", {
    rawBody: new URLSearchParams({ grant_type: "password", username: user.email, password }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (res.status !== 200) throw new Error(`consumer token: ${res.text}`);
  return { user, customer, token: res.body.access_token as string };
}
