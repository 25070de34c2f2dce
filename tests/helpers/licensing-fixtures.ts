import { systemContext } from "../../server/domain/context.ts";
import { createHash, randomUUID } from "node:crypto";
import { tenantDb } from "../../server/db/tenant-db.ts";
import type { Prisma } from "../../server/db/generated/client.ts";
import type { TKeyIssuancePolicyInput } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { createEntitlement } from "../../server/domain/entitlements/entitlement/create-entitlement.ts";
import {
  deleteEntitlement,
  setActivationsEnabled,
} from "../../server/domain/entitlements/entitlement/update-entitlement.ts";
import { ZEntitlementCreateRequest } from "../../server/domain/entitlements/entitlement/entitlement.schemas.ts";
import { copyMonitoredAssets } from "../../server/domain/entitlements/offers/template-snapshot.ts";
import { issueActivationCodes } from "../../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { ZActivationCodeIssueRequest } from "../../server/domain/licensing/activation-codes/activation-code.schemas.ts";
import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../../server/domain/catalog/products/product.schemas.ts";
import { createMonitoredAsset } from "../../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZMonitoredAssetCreateRequest } from "../../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { createCustomerUser, updateCustomerUser } from "../../server/domain/customers/customer-users.ts";
import { createCustomerOrganization } from "../../server/domain/customers/customer-organizations.ts";
import {
  ZCustomerOrganizationCreateRequest,
  ZCustomerUserCreateRequest,
  ZCustomerUserUpdateRequest,
} from "../../server/domain/customers/customer.schemas.ts";
import { inTransaction } from "../../server/db/tenant-db.ts";
import { testDb, type TestTenant } from "./api.ts";

/**
 * Entitlements, sessions, balances and portal users for the licensing and metering tests, made
 * through the domain functions the API calls (systemContext), so they are what the service makes.
 * The few fields no API sets directly are written afterwards, each with its reason.
 */

export const fingerprintHash = (fingerprint: string) =>
  createHash("sha256").update(fingerprint, "utf8").digest("hex");

const ctxOf = (tenant: Pick<TestTenant, "tenantId">) => systemContext(testDb(), tenant.tenantId, "test");

export type EntitlementFixtureFields = Record<string, unknown> & {
  keyIssuancePolicy?: TKeyIssuancePolicyInput;
  claimBasedActivation?: Record<string, unknown>;
  activationPolicy?: Record<string, unknown>;
  status?: string;
  customerId?: string;
  /** Follows from customerId (the domain resolves the customer); accepted and ignored. */
  customerKind?: string;
};

/**
 * An entitlement made by `createEntitlement` from API fields (Dates given as timestamps); seats
 * default to 5, node-locked, lease 1 h, grace 1 day. `status: "Archived"` archives it afterwards.
 */
export async function insertEntitlement(
  tenant: Pick<TestTenant, "tenantId">,
  fields: EntitlementFixtureFields = {},
) {
  const ctx = ctxOf(tenant);
  const {
    customerKind: _derived,
    status,
    activationsEnabled,
    claimBasedActivation,
    features,
    isAnonymousTry,
    sourceOfferId,
    originOfferId,
    ...rest
  } = fields;
  const api = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );
  // A plan name alone (no plan set behind it) is what a plan set's deletion leaves; no API sets it.
  const loosePlanName = api.planName != null && api.planSetId == null ? api.planName : undefined;
  if (loosePlanName !== undefined) delete api.planName;
  const created = await createEntitlement(
    ctx,
    ZEntitlementCreateRequest.parse({
      name: `Entitlement ${randomUUID().slice(0, 8)}`,
      ...api,
      status: status === "Draft" ? "Draft" : "Published",
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 5,
        isFloatingLicense: false,
        ...claimBasedActivation,
      },
    }),
  );
  await writeStoredOnlyEntitlementFields(tenant, created.id, {
    features,
    isAnonymousTry,
    loosePlanName,
    sourceOfferId,
    originOfferId,
  });
  if (activationsEnabled === false) await setActivationsEnabled(ctx, created.id, false);
  if (status === "Archived") await deleteEntitlement(ctx, created.id);
  return tenantDb(testDb(), tenant.tenantId).entitlement.findUniqueOrThrow({ where: { id: created.id } });
}

/**
 * Writes the entitlement fields that no API sets as such, each for a test that needs it: a
 * feature snapshot without the catalog entries behind it (how a token renders features; the
 * snapshot is what template-snapshot.ts stores), an anonymous-try license (made by anonymous
 * activation, licensing/anonymous-try), the offer a license was made from (set by createEntitlement
 * from an offer), and a plan name without its plan set (what a plan set's deletion leaves).
 */
async function writeStoredOnlyEntitlementFields(
  tenant: Pick<TestTenant, "tenantId">,
  entitlementId: string,
  fields: {
    features?: unknown;
    isAnonymousTry?: unknown;
    loosePlanName?: unknown;
    sourceOfferId?: unknown;
    originOfferId?: unknown;
  },
) {
  const { features, isAnonymousTry, loosePlanName, sourceOfferId, originOfferId } = fields;
  const stored: Prisma.EntitlementUpdateInput = {
    ...(features !== undefined ? { features: features as Prisma.InputJsonValue } : {}),
    ...(isAnonymousTry !== undefined ? { isAnonymousTry: Boolean(isAnonymousTry) } : {}),
    ...(loosePlanName !== undefined ? { planName: String(loosePlanName) } : {}),
    ...(sourceOfferId !== undefined ? { sourceOfferId: sourceOfferId as string | null } : {}),
    ...(originOfferId !== undefined ? { originOfferId: originOfferId as string | null } : {}),
  };
  if (Object.keys(stored).length)
    await tenantDb(testDb(), tenant.tenantId).entitlement.update({
      where: { id: entitlementId },
      data: stored,
    });
}

/**
 * A device and one active session on it, made by activating the entitlement (with the given
 * activation code, or a new one): a lease one hour ahead. A given `leaseExpiresAt` (a lease that
 * has run out, or ends at a chosen time) is written afterwards: waiting for it is what tests avoid.
 */
export async function insertSession(
  tenant: Pick<TestTenant, "tenantId">,
  entitlementId: string,
  fields: {
    fingerprint?: string;
    activationCodeId?: string | null;
    leaseExpiresAt?: Date;
    /** On a floating license, each process of a device has its own session. */
    processId?: string;
  } = {},
) {
  const { request } = await import("./api.ts");
  const ctx = ctxOf(tenant);
  const db = tenantDb(testDb(), tenant.tenantId);
  const codeId =
    fields.activationCodeId ??
    (await issueActivationCodes(ctx, entitlementId, ZActivationCodeIssueRequest.parse({}))).codes[0].id;
  const code = await db.activationCode.findUniqueOrThrow({ where: { id: codeId } });
  const activated = await request("POST", "/api/v1/provision/activations/license", {
    body: {
      activationCode: code.code,
      fingerprint: fields.fingerprint ?? `fp-${randomUUID()}`,
      deviceName: "Test machine",
      ...(fields.processId ? { processId: fields.processId } : {}),
    },
  });
  if (activated.status !== 200) throw new Error(`activation: ${activated.text}`);
  let session = await db.licenseSession.findUniqueOrThrow({ where: { id: activated.body.sessionId } });
  if (fields.leaseExpiresAt) session = await moveLeaseEnd(tenant, session.id, fields.leaseExpiresAt);
  const device = await db.device.findUniqueOrThrow({ where: { id: session.deviceId } });
  return { device, session };
}

/**
 * An entitlement's credit balance as the service makes one: a product's balance template
 * (createProduct, createMonitoredAsset) copied onto the entitlement (copyMonitoredAssets, as
 * entitlement creation does) with `totalCredits` as its initial credits. Credits already used are
 * marked afterwards (markCreditsUsed).
 */
export async function insertEntitlementBalance(
  tenant: Pick<TestTenant, "tenantId">,
  entitlementId: string,
  fields: {
    metricName?: string;
    totalCredits?: number;
    creditsUsed?: number;
    isUnlimitedCredits?: boolean;
  } = {},
) {
  const ctx = ctxOf(tenant);
  const db = tenantDb(testDb(), tenant.tenantId);
  const metricName = fields.metricName ?? "credits";
  const product = await createProduct(
    ctx,
    ZProductCreateRequest.parse({
      name: `Credits ${metricName}`,
      productCode: `CREDITS-${randomUUID().slice(0, 8)}`,
    }),
  );
  await createMonitoredAsset(
    ctx,
    product.id,
    ZMonitoredAssetCreateRequest.parse({
      metricName,
      name: "Credits",
      balanceUsage: {
        name: "Credits",
        initialCreditAmount: fields.totalCredits ?? 0,
        isUnlimitedCredits: fields.isUnlimitedCredits ?? false,
      },
    }),
  );
  const entitlement = await db.entitlement.findUniqueOrThrow({ where: { id: entitlementId } });
  const copies = await inTransaction(db, (tx) =>
    copyMonitoredAssets(
      tx,
      tenant.tenantId,
      { kind: "Entitlement", id: entitlementId, status: entitlement.status },
      { productIds: [product.id] },
    ),
  );
  const asset = await db.monitoredAsset.findUniqueOrThrow({ where: { id: copies.get(metricName)! } });
  let balance = await db.balanceUsage.findFirstOrThrow({ where: { monitoredAssetId: asset.id } });
  if (fields.creditsUsed) balance = await markCreditsUsed(tenant, balance.id, fields.creditsUsed);
  return { asset, balance };
}

/**
 * Moves a session's lease to end at `lease` (a lease that has run out, or ends at a chosen time):
 * waiting for a lease is what tests avoid. The seat is held until the lease ends and grace runs a
 * day past it, as activation writes them with the fixtures' lease terms (leaseTime PT1H,
 * gracePeriod P1D).
 */
async function moveLeaseEnd(tenant: Pick<TestTenant, "tenantId">, sessionId: string, lease: Date) {
  return tenantDb(testDb(), tenant.tenantId).licenseSession.update({
    where: { id: sessionId },
    data: {
      leaseExpiresAt: lease,
      seatHeldUntil: lease,
      graceExpiresAt: new Date(lease.getTime() + 86_400_000),
    },
  });
}

/**
 * Marks credits of a balance as used, as consumption's ledger leaves creditsUsed and
 * cumulativeCreditsUsed (server/domain/metering/consumption): the tests that read a part-used
 * balance need no session and no consumption of their own to get there.
 */
async function markCreditsUsed(tenant: Pick<TestTenant, "tenantId">, balanceId: string, used: number) {
  return tenantDb(testDb(), tenant.tenantId).balanceUsage.update({
    where: { id: balanceId },
    data: { creditsUsed: used, cumulativeCreditsUsed: used },
  });
}

/** A portal user with a consumer token, and the CustomerUser that entitlements are assigned to. */
export async function signedInConsumer(tenant: Pick<TestTenant, "tenantId">) {
  const { createUser } = await import("../../server/domain/identity/users.ts");
  const { request } = await import("./api.ts");
  const password = "correct horse battery staple";
  const user = await createUser(ctxOf(tenant), {
    email: `user-${randomUUID().slice(0, 8)}@example.com`,
    password,
    kind: "consumer",
  });
  const created = await createCustomerUser(
    ctxOf(tenant),
    ZCustomerUserCreateRequest.parse({ userId: user.id, email: user.email, roles: [] }),
  );
  const customer = await tenantDb(testDb(), tenant.tenantId).customerUser.findUniqueOrThrow({
    where: { id: created.id },
  });
  const res = await request("POST", "/auth/connect/token", {
    rawBody: new URLSearchParams({ grant_type: "password", username: user.email, password }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  if (res.status !== 200) throw new Error(`consumer token: ${res.text}`);
  return { user, customer, token: res.body.access_token as string };
}

/** A customer user (createCustomerUser), e.g. one a license moves to. */
export async function makeCustomerUser(
  tenant: Pick<TestTenant, "tenantId">,
  fields: Record<string, unknown> = {},
) {
  return createCustomerUser(ctxOf(tenant), ZCustomerUserCreateRequest.parse({ roles: [], ...fields }));
}

/** A customer organization (createCustomerOrganization) with the given customer users as members. */
export async function makeOrganization(
  tenant: Pick<TestTenant, "tenantId">,
  fields: { name?: string; memberIds?: string[] } = {},
) {
  const ctx = ctxOf(tenant);
  const organization = await createCustomerOrganization(
    ctx,
    ZCustomerOrganizationCreateRequest.parse({ name: fields.name ?? `Org ${randomUUID().slice(0, 6)}` }),
  );
  for (const id of fields.memberIds ?? [])
    await updateCustomerUser(
      ctx,
      id,
      ZCustomerUserUpdateRequest.parse({ organizationIds: [organization.id] }),
    );
  return organization;
}
