import { createHash, randomUUID } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { Device, Entitlement, LicenseSession } from "../../db/generated/client.ts";
import { inTransaction, tenantDb, type TenantTx } from "../../db/tenant-db.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { now } from "../../clock.ts";
import { customersOfLogin, entitlementIdsOfCustomers } from "../entitlements/consumer-entitlements.ts";
import { findActivationCodeByInput } from "../entitlements/find-activation-code.ts";
import { ZActivationPolicy, ZClaimBasedActivation, type TActivationPolicy, type TClaimBasedActivation } from "../entitlements/policies.schemas.ts";
import { emitEvents, outboxCte, type OutboxEventInput } from "../webhooks/emit-event.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { routingKeysFrom } from "./entitlement-routing-keys.ts";
import { fingerprintHash } from "./fingerprint-hash.ts";
import { ipAllowed } from "./ip-allowed.ts";
import { durationMs, leaseTerms, type LeaseTerms } from "./lease-terms.ts";
import { licenseState } from "./license-state.ts";
import { seatActivatedEvents } from "./seat-events.ts";
import type { LicenseState } from "./license-token.ts";
import { matchDeviceByComponents } from "./component-matching.ts";

export type ActivationMeta = {
  /** `Online` (the application calls) or `Offline` (an operator issues a response artifact). */
  kind: "Online" | "Offline";
  /** The caller's address, for activationPolicy.allowedIpCidr (online only). */
  ip: string | null;
  /** The activation Idempotency-Key, durable on the session. */
  idempotencyKey: string | null;
  /** The signed-in end user, with useInteractiveUser. */
  user: { tenantId: string; id: string } | null;
};

export type ActivationOutcome = {
  tenantId: string;
  entitlement: Entitlement;
  claims: TClaimBasedActivation;
  session: LicenseSession;
  state: LicenseState;
  fingerprintHash: string;
  /** The tenant's active signing key id, read in the activation's own query. */
  activeKid: string | null;
  /** Whether the entitlement has unrevoked add-on grants (read under the lock; saves the token a query). */
  hasGrants: boolean;
  /** A new session (false for a re-activation or an idempotent replay). */
  created: boolean;
};

type DeviceFacts = Pick<Device, "id" | "fingerprintHash" | "deviceName" | "isPreRegistered" | "isBlocked">;

/**
 * Everything else the decision reads, in one round trip once the entitlement is locked: the
 * tenant's signing key id, product end of life, the device by fingerprint hash, seats held (up to
 * the seat count), the devices holding the code, and what the events' routing keys need.
 */
type ActivationFacts = {
  activeKid: string | null;
  allProductsEnded: boolean | null;
  device: DeviceFacts | null;
  seatsHeld: number;
  codeHolders: string[] | null;
  billing: { provider: string | null; providerSubscriptionReference: string | null; providerCustomerReference: string | null } | null;
  customerExternalReference: string | null;
  hasGrants: boolean;
};

/** The request's identity for the durable activation Idempotency-Key: same key, other request → 409. */
function activationRequestHash(input: TActivationRequest, kind: string): string {
  const canonical = JSON.stringify([kind, input.activationCode ?? null, input.fingerprint, input.useInteractiveUser ?? false, input.productCode ?? null, input.processId ?? null, input.components ?? null]);
  return createHash("sha256").update(canonical).digest("hex");
}

/** Step 1: which tenant and entitlement the request names (code lookup with normalization, or the signed-in user's one license). */
async function resolveEntitlement(base: Db, input: TActivationRequest, meta: ActivationMeta) {
  const code = input.activationCode ? await findActivationCodeByInput(base, input.activationCode) : null;
  if (input.activationCode && !code) throw notFound("Activation code");
  if (input.useInteractiveUser) {
    if (!meta.user) throw new AppError("license.user_authentication_required", "useInteractiveUser needs the signed-in user's bearer token.");
    if (code && code.tenantId !== meta.user.tenantId) throw notFound("Activation code");
    const userDb = tenantDb(base, meta.user.tenantId);
    const mine = await entitlementIdsOfCustomers(userDb, await customersOfLogin(userDb, meta.user.id), { status: "Published" });
    if (code) {
      if (!mine.includes(code.entitlementId)) throw notFound("Activation code");
    } else if (mine.length === 0) {
      throw notFound("License for the signed-in user");
    } else if (mine.length > 1) {
      throw new AppError("license.activation_code_required", `The signed-in user holds ${mine.length} licenses; name one with activationCode.`);
    }
    if (code?.status === "Revoked") throw new AppError("activation_code.revoked", "The activation code has been revoked.");
    return { tenantId: meta.user.tenantId, entitlementId: code?.entitlementId ?? mine[0], code };
  }
  if (!code) throw new AppError("license.activation_code_required", "activationCode is required unless useInteractiveUser resolves exactly one license.");
  if (code.status === "Revoked") throw new AppError("activation_code.revoked", "The activation code has been revoked.");
  return { tenantId: code.tenantId, entitlementId: code.entitlementId, code };
}

/**
 * Locks the entitlement: activations of one license are serialized, so seats are never
 * over-allocated. The locked row is its latest committed version.
 */
async function lockEntitlementRow(tx: TenantTx, tenantId: string, entitlementId: string): Promise<Entitlement> {
  const [row] = await tx.$queryRaw<Entitlement[]>`
    SELECT * FROM "Entitlement" WHERE "tenantId" = ${tenantId}::uuid AND id = ${entitlementId}::uuid FOR UPDATE`;
  if (!row || row.status !== "Published") throw notFound("Entitlement");
  return row;
}

/**
 * The facts, in a statement of their own after the lock: a statement's snapshot is taken before it
 * waits for a lock, so reads made in the locking statement would miss what the previous holder committed.
 */
async function activationFacts(
  tx: TenantTx,
  e: Entitlement,
  claims: TClaimBasedActivation,
  at: Date,
  hash: string,
  code: { id: string; deviceLimit: number | null } | null,
): Promise<ActivationFacts> {
  const [facts] = await tx.$queryRaw<ActivationFacts[]>`
    SELECT
      (SELECT k.kid FROM "SigningKey" k WHERE k."tenantId" = ${e.tenantId}::uuid AND k.status = 'Active' ORDER BY k."createdAt" DESC LIMIT 1) AS "activeKid",
      (SELECT bool_and(p."expirationDate" IS NOT NULL AND p."expirationDate" <= ${at}) FROM "Product" p
        WHERE p."tenantId" = ${e.tenantId}::uuid AND p.id = ANY(${e.productIds}::uuid[])) AS "allProductsEnded",
      (SELECT jsonb_build_object('id', d.id, 'fingerprintHash', d."fingerprintHash", 'deviceName', d."deviceName", 'isPreRegistered', d."isPreRegistered", 'isBlocked', d."isBlocked")
        FROM "Device" d WHERE d."tenantId" = ${e.tenantId}::uuid AND d."entitlementId" = ${e.id}::uuid AND d."fingerprintHash" = ${hash}) AS device,
      -- Counting stops at the seat count: knowing that every seat is taken is enough.
      (SELECT count(*)::int FROM (SELECT 1 FROM "LicenseSession" s
        WHERE s."tenantId" = ${e.tenantId}::uuid AND s."entitlementId" = ${e.id}::uuid AND s."revokedAt" IS NULL AND s."seatHeldUntil" > ${at}
        LIMIT ${claims.numberOfSeats}) held) AS "seatsHeld",
      (SELECT array_agg(DISTINCT s."deviceId")::text[] FROM "LicenseSession" s
        WHERE ${code?.deviceLimit != null}::boolean AND s."tenantId" = ${e.tenantId}::uuid AND s."activationCodeId" = ${code?.id ?? null}::uuid
          AND s."revokedAt" IS NULL AND s."seatHeldUntil" > ${at}) AS "codeHolders",
      (SELECT jsonb_build_object('provider', b.provider, 'providerSubscriptionReference', b."providerSubscriptionReference", 'providerCustomerReference', b."providerCustomerReference")
        FROM "EntitlementBilling" b WHERE b."tenantId" = ${e.tenantId}::uuid AND b."entitlementId" = ${e.id}::uuid LIMIT 1) AS billing,
      CASE WHEN ${e.customerKind}::text = 'Organization'
        THEN (SELECT o."externalReference" FROM "CustomerOrganization" o WHERE o."tenantId" = ${e.tenantId}::uuid AND o.id = ${e.customerId}::uuid)
        ELSE (SELECT u."externalReference" FROM "CustomerUser" u WHERE u."tenantId" = ${e.tenantId}::uuid AND u.id = ${e.customerId}::uuid) END AS "customerExternalReference",
      EXISTS (SELECT 1 FROM "AddOnGrant" g WHERE g."tenantId" = ${e.tenantId}::uuid AND g."entitlementId" = ${e.id}::uuid AND NOT g."isRevoked") AS "hasGrants"`;
  return facts;
}

type DeviceHistory = { sessionCount: number; existing: Pick<LicenseSession, "id" | "seatHeldUntil" | "activationCodeId"> | null };

/**
 * A known device's sessions, in one statement: those past their grace end now (reason
 * `LeaseExpired`: the check at activation time, whatever the sweeper did), and the one an
 * activation returns (the device's unrevoked session; on a floating license, of the same process).
 */
async function deviceHistory(tx: TenantTx, tenantId: string, deviceId: string, at: Date, floating: boolean, processId: string | null): Promise<DeviceHistory> {
  const [row] = await tx.$queryRaw<{ sessionCount: number; existing: { id: string; seatHeldUntil: string; activationCodeId: string | null } | null }[]>`
    WITH ended AS (
      UPDATE "LicenseSession" SET "revokedAt" = ${at}, "revocationReason" = 'LeaseExpired', "updatedAt" = ${at}
      WHERE "tenantId" = ${tenantId}::uuid AND "deviceId" = ${deviceId}::uuid AND "revokedAt" IS NULL AND "graceExpiresAt" <= ${at}
      RETURNING id)
    SELECT
      (SELECT count(*)::int FROM "LicenseSession" s WHERE s."tenantId" = ${tenantId}::uuid AND s."deviceId" = ${deviceId}::uuid) AS "sessionCount",
      (SELECT jsonb_build_object('id', s.id, 'seatHeldUntil', s."seatHeldUntil", 'activationCodeId', s."activationCodeId")
        FROM "LicenseSession" s
        WHERE s."tenantId" = ${tenantId}::uuid AND s."deviceId" = ${deviceId}::uuid AND s."revokedAt" IS NULL AND s."graceExpiresAt" > ${at}
          AND (NOT ${floating}::boolean OR s."processId" IS NOT DISTINCT FROM ${processId}::text)
        ORDER BY s."activatedAt" DESC LIMIT 1) AS existing`;
  const existing = row.existing ? { ...row.existing, seatHeldUntil: new Date(row.existing.seatHeldUntil) } : null;
  return { sessionCount: row.sessionCount, existing };
}

/** Step 2: activations enabled, validity window, then subscription, expiry, trial and grace. */
function licenseStateAt(e: Entitlement, graceMs: number, at: Date): LicenseState {
  if (!e.activationsEnabled) throw new AppError("license.activations_disabled", "Activations are disabled on this license.");
  if (e.notValidBeforeDateTime && at < e.notValidBeforeDateTime) throw new AppError("license.not_yet_valid", `The license is valid from ${e.notValidBeforeDateTime.toISOString()}.`);
  return licenseState(e, graceMs, at);
}

/** The state an idempotent replay reports: nothing is decided again. */
const replayState = (e: Entitlement, at: Date): LicenseState =>
  e.isEntitlementTrial ? "Trial" : e.expirationDateTime && at >= e.expirationDateTime ? "Grace" : "Active";

/** Step 3: activationPolicy. An operator issuing an offline artifact stands in for the user and the network checks. */
async function checkPolicy(
  tx: TenantTx,
  e: Entitlement,
  facts: ActivationFacts,
  policy: TActivationPolicy,
  input: TActivationRequest,
  meta: ActivationMeta,
  at: Date,
): Promise<{ productIds: string[]; productsEnded: boolean }> {
  if (meta.kind === "Online") {
    if (policy.requireActivationWorkflow) throw new AppError("license.forbidden_by_policy", "This license is activated through the vendor's activation workflow (offline issue), not directly.");
    const needsUser = policy.requiredAuthenticationLevel !== "Default" || policy.requireNewUserVerification || policy.requireOrganizationGroupMember;
    if (needsUser) {
      if (!meta.user || !input.useInteractiveUser) throw new AppError("license.user_authentication_required", "This license is activated by a signed-in user (useInteractiveUser with the user's token).");
      const customers = await tx.customerUser.findMany({ where: { userId: meta.user.id }, select: { isApproved: true, isBlocked: true, organizationIds: true } });
      const verified = customers.some((c) => c.isApproved && !c.isBlocked);
      if ((policy.requiredAuthenticationLevel === "VerifiedUser" || policy.requireNewUserVerification) && !verified) {
        throw new AppError("license.forbidden_by_policy", "The license requires a verified user.");
      }
      if (policy.requireOrganizationGroupMember && !customers.some((c) => c.organizationIds.includes(policy.requireOrganizationGroupMember!))) {
        throw new AppError("license.forbidden_by_policy", "The license requires membership of the vendor's organization group.");
      }
    }
    if (policy.allowedIpCidr.length > 0 && !(meta.ip && ipAllowed(meta.ip, policy.allowedIpCidr))) {
      throw new AppError("license.ip_not_allowed", "The caller's address is outside the license's allowed ranges.");
    }
  }
  if (policy.requiredDeviceIdentificationSignatureLength > 0 && input.fingerprint.length !== policy.requiredDeviceIdentificationSignatureLength) {
    throw new AppError("license.device_signature_invalid", `The device identification must be ${policy.requiredDeviceIdentificationSignatureLength} characters long.`);
  }
  if (policy.requireProductCode && !input.productCode) throw new AppError("license.product_code_required", "This license needs productCode: the product being activated.");
  if (input.productCode) {
    const product = await tx.product.findFirst({
      where: { id: { in: e.productIds }, productCode: { equals: input.productCode, mode: "insensitive" } },
      select: { id: true, expirationDate: true },
    });
    if (!product) throw new AppError("license.product_not_licensed", `Product ${input.productCode} is not part of this license.`);
    return { productIds: [product.id], productsEnded: product.expirationDate !== null && product.expirationDate <= at };
  }
  return { productIds: e.productIds, productsEnded: facts.allProductsEnded === true };
}

/** Steps 4-5: the device (by fingerprint hash, or by its components per the strategy): pre-registered when required, not blocked. */
async function findDevice(tx: TenantTx, e: Entitlement, facts: ActivationFacts, claims: TClaimBasedActivation, policy: TActivationPolicy, input: TActivationRequest, hash: string) {
  let device: DeviceFacts | null = facts.device;
  if (!device && input.components && claims.componentMatchingStrategy !== "MatchAll") {
    const matched = await matchDeviceByComponents(tx, e.id, input.components, claims.componentMatchingStrategy);
    // The same machine with a changed fingerprint: it is known by the new one from now on.
    if (matched) device = await tx.device.update({ where: { id: matched.id }, data: { fingerprintHash: hash } });
  }
  if (policy.requirePreConfiguredDeviceIdentification && !device?.isPreRegistered) throw new AppError("license.device_not_registered", "This license admits only devices the vendor registered in advance.");
  if (device?.isBlocked) throw new AppError("license.device_blocked", "The device is blocked on this license.");
  return device;
}

/** Step 6: product end of life, only for a device that never activated the license. */
function checkEndOfLife(productsEnded: boolean, everActivated: boolean) {
  if (productsEnded && !everActivated) {
    throw new AppError("license.product_end_of_life", "Every product of this license is past its end of life, and this device never activated it.");
  }
}

/** Steps 7-8: a free seat and room under the code's device limit. Sessions hold both while `seatHeldUntil` is ahead. */
function checkCapacity(facts: ActivationFacts, claims: TClaimBasedActivation, deviceLimit: number | null, deviceId: string | null) {
  if (facts.seatsHeld >= claims.numberOfSeats) throw new AppError("license.no_seat_available", `All ${claims.numberOfSeats} seats of this license are in use.`);
  const holders = facts.codeHolders ?? [];
  if (deviceLimit !== null && !holders.includes(deviceId ?? "") && holders.length >= deviceLimit) {
    throw new AppError("license.device_limit_reached", `The activation code admits ${deviceLimit} device(s) at once.`);
  }
}

type NewDevice = { id: string; tenantId: string; entitlementId: string; fingerprintHash: string; deviceName: string | null; components: string | null };
type NewSession = Omit<LicenseSession, "createdAt" | "updatedAt" | "revokedAt" | "revocationReason">;

/**
 * A first activation of a new device, the hot path: the device, its session and the two events
 * (envelopes and fan-out jobs) in one statement, so the entitlement's lock is held for as few
 * round trips as possible.
 */
async function insertFirstActivation(tx: TenantTx, device: NewDevice, session: NewSession, events: OutboxEventInput[], at: Date): Promise<LicenseSession> {
  const outbox = outboxCte(events);
  const [row] = await tx.$queryRaw<LicenseSession[]>`
    WITH d AS (
      INSERT INTO "Device" (id, "tenantId", "entitlementId", "fingerprintHash", "deviceName", components, "lastSeenAt", "createdAt", "updatedAt")
      VALUES (${device.id}::uuid, ${device.tenantId}::uuid, ${device.entitlementId}::uuid, ${device.fingerprintHash}, ${device.deviceName}, ${device.components}::jsonb, ${at}, ${at}, ${at})),
    s AS (
      INSERT INTO "LicenseSession" (id, "tenantId", "entitlementId", "deviceId", "activationCodeId", "processId", "deviceName", "productIds", "activatedAt",
        "leaseExpiresAt", "graceExpiresAt", "seatHeldUntil", "validUntil", "lastContactAt", "activatedByUserId", "activationKind", "idempotencyKey", "idempotencyRequestHash", "createdAt", "updatedAt")
      VALUES (${session.id}::uuid, ${session.tenantId}::uuid, ${session.entitlementId}::uuid, ${session.deviceId}::uuid, ${session.activationCodeId}::uuid, ${session.processId}, ${session.deviceName},
        ${session.productIds}::uuid[], ${session.activatedAt}, ${session.leaseExpiresAt}, ${session.graceExpiresAt}, ${session.seatHeldUntil}, ${session.validUntil}, ${session.lastContactAt},
        ${session.activatedByUserId}::uuid, ${session.activationKind}, ${session.idempotencyKey}, ${session.idempotencyRequestHash}, ${at}, ${at})
      RETURNING *),
    ${outbox.sql}
    SELECT s.* FROM s, (SELECT count(*) FROM outbox_jobs) AS jobs`;
  return row;
}

const leaseFields = (terms: LeaseTerms, at: Date) => ({
  leaseExpiresAt: terms.leaseExpiresAt,
  graceExpiresAt: terms.graceExpiresAt,
  seatHeldUntil: terms.seatHeldUntil,
  validUntil: terms.validUntil,
  lastContactAt: at,
});

/**
 * SPEC.md "Runtime surface", activation: the one decision behind /activations/jwt,
 * /activations/license and the offline issue, in this order (docs/decisions.md "Activation"):
 * 1. the code (normalized lookup; revoked → 403) or the signed-in user's one license;
 * 2. the entitlement: Published, activations enabled, validity window, subscription not lapsed,
 *    expiry, trial and grace;
 * 3. activationPolicy (workflow, user, allowedIpCidr, product code, identification length);
 * 4. the device: pre-registered when required; 5. not blocked;
 * 6. product end of life (only for a device that never activated);
 * then an existing session of the same code and fingerprint is returned (never a second seat);
 * 7. a free seat; 8. the code's device limit. An Idempotency-Key is checked first under the lock.
 * Events: `Entitlement.Activated` for a new session, `Entitlement.SeatActivated` whenever a seat is taken.
 */
export async function activate(base: Db, input: TActivationRequest, meta: ActivationMeta): Promise<ActivationOutcome> {
  const { tenantId, entitlementId, code } = await resolveEntitlement(base, input, meta);
  const hash = fingerprintHash(input.fingerprint);
  const requestHash = activationRequestHash(input, meta.kind);
  const db = tenantDb(base, tenantId);

  return inTransaction(
    db,
    async (tx) => {
      const at = now();
      const e = await lockEntitlementRow(tx, tenantId, entitlementId);
      const claims = ZClaimBasedActivation.parse(e.claimBasedActivation ?? {});
      const facts = await activationFacts(tx, e, claims, at, hash, code);
      const outcome = (session: LicenseSession, state: LicenseState, created: boolean): ActivationOutcome => ({
        tenantId, entitlement: e, claims, session, state, fingerprintHash: hash, activeKid: facts.activeKid, hasGrants: facts.hasGrants, created,
      });
      const seatEvents = (session: Pick<LicenseSession, "id" | "entitlementId" | "productIds">, deviceHash: string, created: boolean) =>
        seatActivatedEvents(tenantId, routingKeysFrom(e, facts.customerExternalReference, facts.billing), session, deviceHash, at, created);

      if (meta.idempotencyKey) {
        const previous = await tx.licenseSession.findFirst({ where: { idempotencyKey: meta.idempotencyKey } });
        if (previous) {
          if (previous.idempotencyRequestHash !== requestHash) throw new AppError("idempotency.key_reused", "This Idempotency-Key was used for a different activation.");
          if (previous.revokedAt) throw new AppError("license.no_active_session", "The session this Idempotency-Key created has ended; activate again with a new key.");
          return outcome(previous, replayState(e, at), false);
        }
      }

      const state = licenseStateAt(e, durationMs(claims.gracePeriod), at);
      const terms = leaseTerms(e, claims, meta.kind, state, at);
      const policy = ZActivationPolicy.parse(e.activationPolicy ?? {});
      const { productIds, productsEnded } = await checkPolicy(tx, e, facts, policy, input, meta, at);
      const device = await findDevice(tx, e, facts, claims, policy, input, hash);
      const processId = claims.isFloatingLicense ? (input.processId ?? null) : null;
      const history = device ? await deviceHistory(tx, tenantId, device.id, at, claims.isFloatingLicense, processId) : { sessionCount: 0, existing: null };
      checkEndOfLife(productsEnded, history.sessionCount > 0);
      const deviceChanges = { lastSeenAt: at, ...(input.deviceName ? { deviceName: input.deviceName } : {}), ...(input.components ? { components: input.components } : {}) };

      const existing = history.existing;
      if (device && existing) {
        const holdsSeat = existing.seatHeldUntil > at;
        const sameCode = code !== null && code.id === existing.activationCodeId;
        if (!holdsSeat) checkCapacity(facts, claims, sameCode ? code.deviceLimit : null, device.id);
        const session = await tx.licenseSession.update({
          where: { id: existing.id },
          data: { ...leaseFields(terms, at), ...(input.deviceName ? { deviceName: input.deviceName } : {}) },
        });
        await tx.device.update({ where: { id: device.id }, data: deviceChanges });
        if (!holdsSeat) await emitEvents(tx, seatEvents(session, device.fingerprintHash, false));
        return outcome(session, state, false);
      }

      checkCapacity(facts, claims, code?.deviceLimit ?? null, device?.id ?? null);
      const fields = {
        id: randomUUID(),
        tenantId,
        entitlementId: e.id,
        activationCodeId: code?.id ?? null,
        processId,
        productIds,
        activatedAt: at,
        ...leaseFields(terms, at),
        activatedByUserId: input.useInteractiveUser ? (meta.user?.id ?? null) : null,
        activationKind: meta.kind,
        idempotencyKey: meta.idempotencyKey,
        idempotencyRequestHash: meta.idempotencyKey ? requestHash : null,
      };
      const events = seatEvents(fields, hash, true);
      if (device) {
        const updated = await tx.device.update({ where: { id: device.id }, data: deviceChanges });
        const session = await tx.licenseSession.create({ data: { ...fields, deviceId: device.id, deviceName: input.deviceName ?? updated.deviceName } });
        await emitEvents(tx, events);
        return outcome(session, state, true);
      }
      const deviceId = randomUUID();
      const session = await insertFirstActivation(
        tx,
        { id: deviceId, tenantId, entitlementId: e.id, fingerprintHash: hash, deviceName: input.deviceName ?? null, components: input.components ? JSON.stringify(input.components) : null },
        { ...fields, deviceId, deviceName: input.deviceName ?? null },
        events,
        at,
      );
      return outcome(session, state, true);
    },
    { retryOnConflict: true },
  );
}
