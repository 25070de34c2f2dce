import { createHash } from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { Device, Entitlement, LicenseSession } from "../../db/generated/client.ts";
import { inTransaction, tenantDb, type TenantTx } from "../../db/tenant-db.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { now } from "../../clock.ts";
import { findActivationCodeByInput } from "../entitlements/find-activation-code.ts";
import { ZActivationPolicy, ZClaimBasedActivation, type TActivationPolicy, type TClaimBasedActivation } from "../entitlements/policies.schemas.ts";
import { emitEvents } from "../webhooks/emit-event.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { entitlementRoutingKeys } from "./entitlement-routing-keys.ts";
import { fingerprintHash } from "./fingerprint-hash.ts";
import { ipAllowed } from "./ip-allowed.ts";
import { durationMs, leaseTerms, type LeaseTerms } from "./lease-terms.ts";
import type { LicenseState } from "./license-token.ts";
import { matchDeviceByComponents } from "./component-matching.ts";
import { userEntitlementIds } from "./user-entitlements.ts";

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
  /** A new session (false for a re-activation or an idempotent replay). */
  created: boolean;
};

type LockedEntitlement = Entitlement & { activeKid: string | null; allProductsEnded: boolean | null };

const refuse = (codeName: ConstructorParameters<typeof AppError>[0], detail: string) => new AppError(codeName, detail);

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
    if (!meta.user) throw refuse("license.user_authentication_required", "useInteractiveUser needs the signed-in user's bearer token.");
    if (code && code.tenantId !== meta.user.tenantId) throw notFound("Activation code");
    const mine = await userEntitlementIds(tenantDb(base, meta.user.tenantId), meta.user.id);
    if (code) {
      if (!mine.includes(code.entitlementId)) throw notFound("Activation code");
    } else if (mine.length === 0) {
      throw notFound("License for the signed-in user");
    } else if (mine.length > 1) {
      throw refuse("license.activation_code_required", `The signed-in user holds ${mine.length} licenses; name one with activationCode.`);
    }
    if (code?.status === "Revoked") throw new AppError("activation_code.revoked", "The activation code has been revoked.");
    return { tenantId: meta.user.tenantId, entitlementId: code?.entitlementId ?? mine[0], code };
  }
  if (!code) throw refuse("license.activation_code_required", "activationCode is required unless useInteractiveUser resolves exactly one license.");
  if (code.status === "Revoked") throw new AppError("activation_code.revoked", "The activation code has been revoked.");
  return { tenantId: code.tenantId, entitlementId: code.entitlementId, code };
}

/** Locks the entitlement (activations of one license are serialized: seats are never over-allocated). */
async function lockForActivation(tx: TenantTx, tenantId: string, entitlementId: string, at: Date): Promise<LockedEntitlement> {
  const [row] = await tx.$queryRaw<LockedEntitlement[]>`
    SELECT e.*,
      (SELECT k.kid FROM "SigningKey" k WHERE k."tenantId" = e."tenantId" AND k.status = 'Active' ORDER BY k."createdAt" DESC LIMIT 1) AS "activeKid",
      (SELECT bool_and(p."expirationDate" IS NOT NULL AND p."expirationDate" <= ${at}) FROM "Product" p
        WHERE p."tenantId" = e."tenantId" AND p.id = ANY(e."productIds")) AS "allProductsEnded"
    FROM "Entitlement" e WHERE e."tenantId" = ${tenantId}::uuid AND e.id = ${entitlementId}::uuid
    FOR UPDATE OF e`;
  if (!row || row.status !== "Published") throw notFound("Entitlement");
  return row;
}

/** Step 2: activations enabled, validity window, subscription, expiry, trial and grace. */
function licenseStateAt(e: LockedEntitlement, graceMs: number, at: Date): LicenseState {
  if (!e.activationsEnabled) throw refuse("license.activations_disabled", "Activations are disabled on this license.");
  if (e.notValidBeforeDateTime && at < e.notValidBeforeDateTime) throw refuse("license.not_yet_valid", `The license is valid from ${e.notValidBeforeDateTime.toISOString()}.`);
  if (e.subscriptionStatus === "Lapsed") throw refuse("license.subscription_lapsed", "The license's subscription has lapsed.");
  if (!e.expirationDateTime || at < e.expirationDateTime) return e.isEntitlementTrial ? "Trial" : "Active";
  if (e.isEntitlementTrial) throw refuse("license.trial_expired", `The trial ended at ${e.expirationDateTime.toISOString()}.`);
  if (at.getTime() >= e.expirationDateTime.getTime() + graceMs) throw refuse("license.expired", `The license expired at ${e.expirationDateTime.toISOString()}.`);
  return "Grace";
}

/** The state an idempotent replay reports: nothing is decided again. */
const replayState = (e: LockedEntitlement, at: Date): LicenseState =>
  e.isEntitlementTrial ? "Trial" : e.expirationDateTime && at >= e.expirationDateTime ? "Grace" : "Active";

/** Step 3: activationPolicy. An operator issuing an offline artifact stands in for the user and the network checks. */
async function checkPolicy(tx: TenantTx, e: LockedEntitlement, policy: TActivationPolicy, input: TActivationRequest, meta: ActivationMeta): Promise<string[]> {
  if (meta.kind === "Online") {
    if (policy.requireActivationWorkflow) throw refuse("license.forbidden_by_policy", "This license is activated through the vendor's activation workflow (offline issue), not directly.");
    const needsUser = policy.requiredAuthenticationLevel !== "Default" || policy.requireNewUserVerification || policy.requireOrganizationGroupMember;
    if (needsUser) {
      if (!meta.user || !input.useInteractiveUser) throw refuse("license.user_authentication_required", "This license is activated by a signed-in user (useInteractiveUser with the user's token).");
      const customers = await tx.customerUser.findMany({ where: { userId: meta.user.id }, select: { isApproved: true, isBlocked: true, organizationIds: true } });
      const verified = customers.some((c) => c.isApproved && !c.isBlocked);
      if ((policy.requiredAuthenticationLevel === "VerifiedUser" || policy.requireNewUserVerification) && !verified) {
        throw refuse("license.forbidden_by_policy", "The license requires a verified user.");
      }
      if (policy.requireOrganizationGroupMember && !customers.some((c) => c.organizationIds.includes(policy.requireOrganizationGroupMember!))) {
        throw refuse("license.forbidden_by_policy", "The license requires membership of the vendor's organization group.");
      }
    }
    if (policy.allowedIpCidr.length > 0 && !(meta.ip && ipAllowed(meta.ip, policy.allowedIpCidr))) {
      throw refuse("license.ip_not_allowed", "The caller's address is outside the license's allowed ranges.");
    }
  }
  if (policy.requiredDeviceIdentificationSignatureLength > 0 && input.fingerprint.length !== policy.requiredDeviceIdentificationSignatureLength) {
    throw refuse("license.device_signature_invalid", `The device identification must be ${policy.requiredDeviceIdentificationSignatureLength} characters long.`);
  }
  if (policy.requireProductCode && !input.productCode) throw refuse("license.product_code_required", "This license needs productCode: the product being activated.");
  if (input.productCode) {
    const product = await tx.product.findFirst({
      where: { id: { in: e.productIds }, productCode: { equals: input.productCode, mode: "insensitive" } },
      select: { id: true },
    });
    if (!product) throw refuse("license.product_not_licensed", `Product ${input.productCode} is not part of this license.`);
    return [product.id];
  }
  return e.productIds;
}

/** Steps 4-5: the device (by fingerprint hash, or by its components per the strategy): pre-registered when required, not blocked. */
async function findDevice(tx: TenantTx, e: LockedEntitlement, claims: TClaimBasedActivation, policy: TActivationPolicy, input: TActivationRequest, hash: string) {
  let device: Device | null = await tx.device.findFirst({ where: { entitlementId: e.id, fingerprintHash: hash } });
  if (!device && input.components && claims.componentMatchingStrategy !== "MatchAll") {
    const matched = await matchDeviceByComponents(tx, e.id, input.components, claims.componentMatchingStrategy);
    // The same machine with a changed fingerprint: it is known by the new one from now on.
    if (matched) device = await tx.device.update({ where: { id: matched.id }, data: { fingerprintHash: hash } });
  }
  if (policy.requirePreConfiguredDeviceIdentification && !device?.isPreRegistered) throw refuse("license.device_not_registered", "This license admits only devices the vendor registered in advance.");
  if (device?.isBlocked) throw refuse("license.device_blocked", "The device is blocked on this license.");
  return device;
}

/** Step 6: product end of life, only for a device that never activated the license. */
async function checkEndOfLife(tx: TenantTx, e: LockedEntitlement, productIds: string[], device: Device | null, at: Date) {
  const ended =
    productIds === e.productIds
      ? e.allProductsEnded === true
      : (await tx.product.count({ where: { id: { in: productIds }, expirationDate: { lte: at } } })) === productIds.length && productIds.length > 0;
  if (!ended) return;
  const everActivated = device ? (await tx.licenseSession.count({ where: { deviceId: device.id } })) > 0 : false;
  if (!everActivated) throw refuse("license.product_end_of_life", "Every product of this license is past its end of life, and this device never activated it.");
}

/** Steps 7-8: a free seat and room under the code's device limit. Sessions hold both while `seatHeldUntil` is ahead. */
async function checkCapacity(tx: TenantTx, e: LockedEntitlement, claims: TClaimBasedActivation, codeId: string | null, deviceLimit: number | null, device: Device | null, at: Date) {
  const held = await tx.licenseSession.count({ where: { entitlementId: e.id, revokedAt: null, seatHeldUntil: { gt: at } } });
  if (held >= claims.numberOfSeats) throw refuse("license.no_seat_available", `All ${claims.numberOfSeats} seats of this license are in use.`);
  if (codeId && deviceLimit !== null) {
    const holders = await tx.licenseSession.findMany({ where: { activationCodeId: codeId, revokedAt: null, seatHeldUntil: { gt: at } }, distinct: ["deviceId"], select: { deviceId: true } });
    if (!holders.some((h) => h.deviceId === device?.id) && holders.length >= deviceLimit) {
      throw refuse("license.device_limit_reached", `The activation code admits ${deviceLimit} device(s) at once.`);
    }
  }
}

async function emitSeatActivated(tx: TenantTx, e: LockedEntitlement, session: LicenseSession, hash: string, created: boolean) {
  const keys = await entitlementRoutingKeys(tx, session.entitlementId, e);
  const base = { tenantId: e.tenantId, entityKind: "entitlement", entityId: session.entitlementId, subject: `entitlements/${session.entitlementId}` };
  const seat = {
    ...base,
    type: "Entitlement.SeatActivated",
    data: { ...keys, sessionId: session.id, deviceFingerprintHash: hash, productIds: session.productIds, activatedAtUtc: session.updatedAt.toISOString() },
  };
  await emitEvents(tx, created ? [{ ...base, type: "Entitlement.Activated", data: { ...keys, sessionId: session.id, deviceFingerprintHash: hash } }, seat] : [seat]);
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
      const e = await lockForActivation(tx, tenantId, entitlementId, at);
      const claims = ZClaimBasedActivation.parse(e.claimBasedActivation ?? {});
      const outcome = (session: LicenseSession, state: LicenseState, created: boolean): ActivationOutcome => ({
        tenantId, entitlement: e, claims, session, state, fingerprintHash: hash, activeKid: e.activeKid, created,
      });

      if (meta.idempotencyKey) {
        const previous = await tx.licenseSession.findFirst({ where: { idempotencyKey: meta.idempotencyKey } });
        if (previous) {
          if (previous.idempotencyRequestHash !== requestHash) throw new AppError("idempotency.key_reused", "This Idempotency-Key was used for a different activation.");
          if (previous.revokedAt) throw refuse("license.no_active_session", "The session this Idempotency-Key created has ended; activate again with a new key.");
          return outcome(previous, replayState(e, at), false);
        }
      }

      const state = licenseStateAt(e, durationMs(claims.gracePeriod), at);
      const terms = leaseTerms(e, claims, meta.kind, state, at);
      const policy = ZActivationPolicy.parse(e.activationPolicy ?? {});
      const productIds = await checkPolicy(tx, e, policy, input, meta);
      let device = await findDevice(tx, e, claims, policy, input, hash);
      await checkEndOfLife(tx, e, productIds, device, at);

      const processId = claims.isFloatingLicense ? (input.processId ?? null) : null;
      if (device) {
        // The check at activation time: a session past its grace is over even if the sweeper has not run yet.
        await tx.licenseSession.updateMany({ where: { deviceId: device.id, revokedAt: null, graceExpiresAt: { lte: at } }, data: { revokedAt: at, revocationReason: "LeaseExpired" } });
        const existing = await tx.licenseSession.findFirst({
          where: { deviceId: device.id, revokedAt: null, ...(claims.isFloatingLicense ? { processId } : {}) },
          orderBy: { activatedAt: "desc" },
        });
        if (existing) {
          const holdsSeat = existing.seatHeldUntil > at;
          const sameCode = code !== null && code.id === existing.activationCodeId;
          if (!holdsSeat) await checkCapacity(tx, e, claims, existing.activationCodeId, sameCode ? code.deviceLimit : null, device, at);
          const session = await tx.licenseSession.update({
            where: { id: existing.id },
            data: { ...leaseFields(terms, at), ...(input.deviceName ? { deviceName: input.deviceName } : {}) },
          });
          await tx.device.update({ where: { id: device.id }, data: { lastSeenAt: at, ...(input.components ? { components: input.components } : {}) } });
          if (!holdsSeat) await emitSeatActivated(tx, e, session, device.fingerprintHash, false);
          return outcome(session, state, false);
        }
      }

      await checkCapacity(tx, e, claims, code?.id ?? null, code?.deviceLimit ?? null, device, at);
      device = device
        ? await tx.device.update({ where: { id: device.id }, data: { lastSeenAt: at, ...(input.deviceName ? { deviceName: input.deviceName } : {}), ...(input.components ? { components: input.components } : {}) } })
        : await tx.device.create({
            data: { tenantId, entitlementId: e.id, fingerprintHash: hash, deviceName: input.deviceName ?? null, components: input.components ?? undefined, lastSeenAt: at },
          });
      const session = await tx.licenseSession.create({
        data: {
          tenantId,
          entitlementId: e.id,
          deviceId: device.id,
          activationCodeId: code?.id ?? null,
          processId,
          deviceName: input.deviceName ?? device.deviceName,
          productIds,
          activatedAt: at,
          ...leaseFields(terms, at),
          activatedByUserId: input.useInteractiveUser ? (meta.user?.id ?? null) : null,
          activationKind: meta.kind,
          idempotencyKey: meta.idempotencyKey,
          idempotencyRequestHash: meta.idempotencyKey ? requestHash : null,
        },
      });
      await emitSeatActivated(tx, e, session, device.fingerprintHash, true);
      return outcome(session, state, true);
    },
    { retryOnConflict: true },
  );
}
