import { createHash, randomUUID } from "node:crypto";
import { isProcessDb, type Db } from "../../../db/client.ts";
import type { ActivationCode, Device, Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import { inTransaction, tenantDb, type TenantDbOrTx } from "../../../db/tenant-db.ts";
import { inSqlTransaction, type SqlTx } from "../../../db/sql.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { refuseUnverifiedHolder } from "./unverified-holder.ts";
import {
  customersOfLogin,
  entitlementIdsOfCustomers,
} from "../../entitlements/consumer/consumer-entitlements.ts";
import { findActivationCodeByInput } from "../activation-codes/find-activation-code.ts";
import {
  ZActivationPolicy,
  ZClaimBasedActivation,
  type TActivationPolicy,
  type TClaimBasedActivation,
} from "../../entitlements/entitlement/policies.schemas.ts";
import { outboxRows } from "../../webhooks/events/emit-event.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { routingKeysFrom } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import { fingerprintHash } from "../devices/fingerprint-hash.ts";
import { ipAllowed } from "./ip-allowed.ts";
import { durationMs, leaseTerms } from "./lease-terms.ts";
import { licenseState } from "./license-state.ts";
import { seatActivatedEvents } from "../sessions/seat-events.ts";
import type { LicenseState } from "../tokens/license-token.ts";
import { rekeyDeviceByComponents } from "./component-matching.ts";
import {
  ACTIVATION_FACTS,
  DEVICE_SESSIONS,
  FIRST_ACTIVATION,
  LOCK_ENTITLEMENT,
  NEW_SESSION_OF_DEVICE,
  REACTIVATE,
} from "./activation-sql.ts";

export type ActivationMeta = {
  /** `Online` (the application calls) or `Offline` (an operator issues a response artifact). */
  kind: "Online" | "Offline";
  /** The caller's address, for activationPolicy.allowedIpCidr (online only). */
  ip: string | null;
  /** The activation Idempotency-Key, durable on the session. */
  idempotencyKey: string | null;
  /** The signed-in end user, with useInteractiveUser. */
  user: { tenantId: string; id: string } | null;
  /**
   * The code row the rate limiter's statement read by the input's lookup key (null: none), so it
   * is not read again; absent when nothing read it.
   */
  activationCode?: ActivationCode | null;
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

type SessionHandle = {
  id: string;
  seatHeldUntil: string;
  activationCodeId: string | null;
  productIds: string[];
};

/** Everything else the decision reads, in one round trip once the entitlement is locked (ACTIVATION_FACTS). */
type ActivationFacts = {
  /** The claims' seat count and floating flag as the statement read them (checked against the parsed claims). */
  seatLimit: number;
  floating: boolean;
  activeKid: string | null;
  allProductsEnded: boolean | null;
  device: DeviceFacts | null;
  /** Sessions the fingerprint's device ever had: a device that never activated meets end of life. */
  deviceSessionCount: number;
  /** The device's unrevoked session an activation returns (on a floating license, of the same process). */
  existing: SessionHandle | null;
  /** Seats held, counted up to the seat count; below it, possibly an upper bound (unrevoked sessions). */
  seatsHeld: number;
  codeHolders: string[] | null;
  billing: {
    provider: string | null;
    providerSubscriptionReference: string | null;
    providerCustomerReference: string | null;
  } | null;
  customerExternalReference: string | null;
  hasGrants: boolean;
  /** The session the Idempotency-Key made, with its device's fingerprint hash. */
  previous: (Record<string, unknown> & { fingerprintHash: string }) | null;
};

/** The request's identity for the durable activation Idempotency-Key: same key, other request → 409. */
function activationRequestHash(input: TActivationRequest, kind: string): string {
  const canonical = JSON.stringify([
    kind,
    input.activationCode ?? null,
    input.fingerprint,
    input.useInteractiveUser ?? false,
    input.productCode ?? null,
    input.processId ?? null,
    input.components ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

/** Step 1: which tenant and entitlement the request names (code lookup with normalization, or the signed-in user's one license). */
async function resolveEntitlement(base: Db, input: TActivationRequest, meta: ActivationMeta) {
  const code = input.activationCode
    ? await findActivationCodeByInput(base, input.activationCode, meta.activationCode)
    : null;
  if (input.activationCode && !code) throw notFound("Activation code");
  if (input.useInteractiveUser) {
    if (!meta.user)
      throw new AppError(
        "license.user_authentication_required",
        "useInteractiveUser needs the signed-in user's bearer token.",
      );
    if (code && code.tenantId !== meta.user.tenantId) throw notFound("Activation code");
    const userDb = tenantDb(base, meta.user.tenantId);
    const mine = await entitlementIdsOfCustomers(userDb, await customersOfLogin(userDb, meta.user.id), {
      status: "Published",
    });
    if (code) {
      if (!mine.includes(code.entitlementId)) {
        await refuseUnverifiedHolder(userDb, meta.user.id, code.entitlementId);
        throw notFound("Activation code");
      }
    } else if (mine.length === 0) {
      await refuseUnverifiedHolder(userDb, meta.user.id, null);
      throw notFound("License for the signed-in user");
    } else if (mine.length > 1) {
      throw new AppError(
        "license.activation_code_required",
        `The signed-in user holds ${mine.length} licenses; name one with activationCode.`,
      );
    }
    if (code?.status === "Revoked")
      throw new AppError("activation_code.revoked", "The activation code has been revoked.");
    return { tenantId: meta.user.tenantId, entitlementId: code?.entitlementId ?? mine[0], code };
  }
  if (!code)
    throw new AppError(
      "license.activation_code_required",
      "activationCode is required unless useInteractiveUser resolves exactly one license.",
    );
  if (code.status === "Revoked")
    throw new AppError("activation_code.revoked", "The activation code has been revoked.");
  return { tenantId: code.tenantId, entitlementId: code.entitlementId, code };
}

/** Step 2: activations enabled, validity window, then subscription, expiry, trial and grace. */
function licenseStateAt(e: Entitlement, graceMs: number, at: Date): LicenseState {
  if (!e.activationsEnabled)
    throw new AppError("license.activations_disabled", "Activations are disabled on this license.");
  if (e.notValidBeforeDateTime && at < e.notValidBeforeDateTime)
    throw new AppError(
      "license.not_yet_valid",
      `The license is valid from ${e.notValidBeforeDateTime.toISOString()}.`,
    );
  return licenseState(e, graceMs, at);
}

/** The state an idempotent replay reports: nothing is decided again. */
const replayState = (e: Entitlement, at: Date): LicenseState =>
  e.isEntitlementTrial ? "Trial" : e.expirationDateTime && at >= e.expirationDateTime ? "Grace" : "Active";

/** Step 3: activationPolicy. An operator issuing an offline artifact stands in for the user and the network checks. */
async function checkPolicy(
  sql: SqlTx,
  e: Entitlement,
  facts: ActivationFacts,
  policy: TActivationPolicy,
  input: TActivationRequest,
  meta: ActivationMeta,
  at: Date,
): Promise<{ productIds: string[]; productsEnded: boolean }> {
  if (meta.kind === "Online") {
    if (policy.requireActivationWorkflow)
      throw new AppError(
        "license.forbidden_by_policy",
        "This license is activated through the vendor's activation workflow (offline issue), not directly.",
      );
    const needsUser =
      policy.requiredAuthenticationLevel !== "Default" ||
      policy.requireNewUserVerification ||
      policy.requireOrganizationGroupMember;
    if (needsUser) {
      if (!meta.user || !input.useInteractiveUser)
        throw new AppError(
          "license.user_authentication_required",
          "This license is activated by a signed-in user (useInteractiveUser with the user's token).",
        );
      const userId = meta.user.id;
      const customers = await sql.prisma((tx) =>
        tx.customerUser.findMany({
          where: { userId },
          select: { isApproved: true, isBlocked: true, organizationIds: true },
        }),
      );
      const verified = customers.some((c) => c.isApproved && !c.isBlocked);
      if (
        (policy.requiredAuthenticationLevel === "VerifiedUser" || policy.requireNewUserVerification) &&
        !verified
      ) {
        throw new AppError("license.forbidden_by_policy", "The license requires a verified user.");
      }
      if (
        policy.requireOrganizationGroupMember &&
        !customers.some((c) => c.organizationIds.includes(policy.requireOrganizationGroupMember!))
      ) {
        throw new AppError(
          "license.forbidden_by_policy",
          "The license requires membership of the vendor's organization group.",
        );
      }
    }
    if (policy.allowedIpCidr.length > 0 && !(meta.ip && ipAllowed(meta.ip, policy.allowedIpCidr))) {
      throw new AppError(
        "license.ip_not_allowed",
        "The caller's address is outside the license's allowed ranges.",
      );
    }
  }
  if (
    policy.requiredDeviceIdentificationSignatureLength > 0 &&
    input.fingerprint.length !== policy.requiredDeviceIdentificationSignatureLength
  ) {
    throw new AppError(
      "license.device_signature_invalid",
      `The device identification must be ${policy.requiredDeviceIdentificationSignatureLength} characters long.`,
    );
  }
  if (policy.requireProductCode && !input.productCode)
    throw new AppError(
      "license.product_code_required",
      "This license needs productCode: the product being activated.",
    );
  if (input.productCode) {
    const productCode = input.productCode;
    const product = await sql.prisma((tx) =>
      tx.product.findFirst({
        where: { id: { in: e.productIds }, productCode: { equals: productCode, mode: "insensitive" } },
        select: { id: true, expirationDate: true },
      }),
    );
    if (!product)
      throw new AppError(
        "license.product_not_licensed",
        `Product ${input.productCode} is not part of this license.`,
      );
    return {
      productIds: [product.id],
      productsEnded: product.expirationDate !== null && product.expirationDate <= at,
    };
  }
  return { productIds: e.productIds, productsEnded: facts.allProductsEnded === true };
}

/**
 * Steps 4-5: the device (by fingerprint hash, or by its components per the strategy, which
 * re-keys it: component-matching.ts): pre-registered when required, not blocked.
 */
async function findDevice(
  sql: SqlTx,
  e: Entitlement,
  facts: ActivationFacts,
  claims: TClaimBasedActivation,
  policy: TActivationPolicy,
  input: TActivationRequest,
  hash: string,
  at: Date,
): Promise<{ device: DeviceFacts | null; rekeyed: boolean }> {
  let device: DeviceFacts | null = facts.device;
  let rekeyed = false;
  if (!device && input.components) {
    device = await rekeyDeviceByComponents(
      sql,
      e.tenantId,
      e.id,
      input.components,
      claims.componentMatchingStrategy,
      hash,
      at,
    );
    rekeyed = device !== null;
  }
  if (policy.requirePreConfiguredDeviceIdentification && !device?.isPreRegistered)
    throw new AppError(
      "license.device_not_registered",
      "This license admits only devices the vendor registered in advance.",
    );
  if (device?.isBlocked)
    throw new AppError("license.device_blocked", "The device is blocked on this license.");
  return { device, rekeyed };
}
/** Step 6: product end of life, only for a device that never activated the license. */
function checkEndOfLife(productsEnded: boolean, everActivated: boolean) {
  if (productsEnded && !everActivated) {
    throw new AppError(
      "license.product_end_of_life",
      "Every product of this license is past its end of life, and this device never activated it.",
    );
  }
}

/** Steps 7-8: a free seat and room under the code's device limit. Sessions hold both while `seatHeldUntil` is ahead. */
function checkCapacity(
  facts: ActivationFacts,
  claims: TClaimBasedActivation,
  deviceLimit: number | null,
  deviceId: string | null,
) {
  if (facts.seatsHeld >= claims.numberOfSeats)
    throw new AppError(
      "license.no_seat_available",
      `All ${claims.numberOfSeats} seats of this license are in use.`,
    );
  const holders = facts.codeHolders ?? [];
  if (deviceLimit !== null && !holders.includes(deviceId ?? "") && holders.length >= deviceLimit) {
    throw new AppError(
      "license.device_limit_reached",
      `The activation code admits ${deviceLimit} device(s) at once.`,
    );
  }
}

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
/** A session row read as JSON (`to_jsonb`): timestamps come as strings. */
function reviveSession(json: Record<string, unknown>): LicenseSession {
  const dates = [
    "activatedAt",
    "leaseExpiresAt",
    "graceExpiresAt",
    "seatHeldUntil",
    "validUntil",
    "lastContactAt",
    "revokedAt",
    "createdAt",
    "updatedAt",
  ] as const;
  const out: Record<string, unknown> = { ...json };
  delete out.fingerprintHash;
  for (const key of dates) out[key] = json[key] == null ? null : new Date(json[key] as string);
  return out as LicenseSession;
}

const keyReused = () =>
  new AppError("idempotency.key_reused", "This Idempotency-Key was used for a different activation.");

/** PostgreSQL refused a second session with the same Idempotency-Key (a parallel use of one key). */
function isIdempotencyKeyTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string; meta?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  const text = `${e.constraint ?? ""} ${e.message ?? ""} ${JSON.stringify(e.meta ?? null)}`;
  return text.includes("LicenseSession_tenantId_idempotencyKey_key");
}

type ActivationCodeRef = { id: string; deviceLimit: number | null };

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
export async function activate(
  base: Db,
  input: TActivationRequest,
  meta: ActivationMeta,
): Promise<ActivationOutcome> {
  const { tenantId, entitlementId, code } = await resolveEntitlement(base, input, meta);
  const db = tenantDb(base, tenantId);
  // A client with a pool of its own (a script's, a test's) runs the decision on its connections.
  if (!isProcessDb(base))
    return inTransaction(db, (tx) => decideActivation(tx, tenantId, entitlementId, code, input, meta), {
      retryOnConflict: true,
    });
  return decideActivation(db, tenantId, entitlementId, code, input, meta);
}

/**
 * The decision once the tenant and entitlement are known, in `db`'s transaction when it is one
 * (the offline issue under an Idempotency-Key), else in a pg transaction of its own: the
 * entitlement's lock, one read of the facts, one write with the events, commit (DESIGN.md
 * section 11). Nothing is signed here: the caller signs the token after commit.
 */
export async function decideActivation(
  db: TenantDbOrTx,
  tenantId: string,
  entitlementId: string,
  code: ActivationCodeRef | null,
  input: TActivationRequest,
  meta: ActivationMeta,
): Promise<ActivationOutcome> {
  const hash = fingerprintHash(input.fingerprint);
  const requestHash = activationRequestHash(input, meta.kind);
  const userId = input.useInteractiveUser ? (meta.user?.id ?? null) : null;
  try {
    return await inSqlTransaction(db, tenantId, (sql) =>
      decideLocked(sql, tenantId, entitlementId, code, input, meta, { hash, requestHash, userId }),
    );
  } catch (error) {
    // One key used for two activations at once: the second insert meets the first's key.
    if (meta.idempotencyKey && isIdempotencyKeyTaken(error)) throw keyReused();
    throw error;
  }
}

async function decideLocked(
  sql: SqlTx,
  tenantId: string,
  entitlementId: string,
  code: ActivationCodeRef | null,
  input: TActivationRequest,
  meta: ActivationMeta,
  request: { hash: string; requestHash: string; userId: string | null },
): Promise<ActivationOutcome> {
  const { hash, requestHash, userId } = request;
  const at = now();
  // The lock and the facts in one round trip: the facts read the entitlement themselves.
  const [[e], [facts]] = (await sql.queries([
    [LOCK_ENTITLEMENT, [tenantId, entitlementId]],
    [
      ACTIVATION_FACTS,
      [
        tenantId,
        entitlementId,
        at,
        hash,
        code?.deviceLimit != null,
        code?.id ?? null,
        meta.idempotencyKey,
        input.processId ?? null,
      ],
    ],
  ])) as [Entitlement[], ActivationFacts[]];
  if (!e || e.status !== "Published") throw notFound("Entitlement");
  const claims = ZClaimBasedActivation.parse(e.claimBasedActivation ?? {});
  if (facts.seatLimit !== claims.numberOfSeats || facts.floating !== claims.isFloatingLicense)
    throw new Error(`Entitlement ${e.id}: the facts statement read its claims otherwise than their schema`);
  const processId = claims.isFloatingLicense ? (input.processId ?? null) : null;
  const outcome = (session: LicenseSession, state: LicenseState, created: boolean): ActivationOutcome => ({
    tenantId,
    entitlement: e,
    claims,
    session,
    state,
    fingerprintHash: hash,
    activeKid: facts.activeKid,
    hasGrants: facts.hasGrants,
    created,
  });
  const seatEvents = (
    session: Pick<LicenseSession, "id" | "entitlementId" | "productIds">,
    deviceHash: string,
    created: boolean,
  ) =>
    outboxRows(
      seatActivatedEvents(
        tenantId,
        routingKeysFrom(e, facts.customerExternalReference, facts.billing),
        session,
        deviceHash,
        at,
        created,
      ),
    );

  if (facts.previous) {
    // The key is scoped to its code (or signed-in user) and fingerprint (docs/security.md
    // "Activation Idempotency-Key"): used by another caller or for another request, it is 409
    // and never answers the session it made.
    const previous = reviveSession(facts.previous);
    if (
      previous.idempotencyRequestHash !== requestHash ||
      previous.activationCodeId !== (code?.id ?? null) ||
      previous.activatedByUserId !== userId ||
      facts.previous.fingerprintHash !== hash ||
      previous.entitlementId !== e.id
    )
      throw keyReused();
    if (previous.revokedAt)
      throw new AppError(
        "license.no_active_session",
        "The session this Idempotency-Key created has ended; activate again with a new key.",
      );
    return outcome(previous, replayState(e, at), false);
  }

  const state = licenseStateAt(e, durationMs(claims.gracePeriod), at);
  const terms = leaseTerms(e, claims, meta.kind, state, at);
  const policy = ZActivationPolicy.parse(e.activationPolicy ?? {});
  const { productIds, productsEnded } = await checkPolicy(sql, e, facts, policy, input, meta, at);
  const { device, rekeyed } = await findDevice(sql, e, facts, claims, policy, input, hash, at);
  let { deviceSessionCount, existing } = facts;
  if (rekeyed && device) {
    const [sessions] = await sql.query<Pick<ActivationFacts, "deviceSessionCount" | "existing">>(
      DEVICE_SESSIONS,
      [tenantId, device.id, at, claims.isFloatingLicense, processId],
    );
    ({ deviceSessionCount, existing } = sessions);
  }
  checkEndOfLife(productsEnded, device !== null && deviceSessionCount > 0);
  const components = input.components ? JSON.stringify(input.components) : null;
  const deviceName = input.deviceName ?? null;
  const lease = [terms.leaseExpiresAt, terms.graceExpiresAt, terms.seatHeldUntil, terms.validUntil];

  if (device && existing) {
    const holdsSeat = new Date(existing.seatHeldUntil) > at;
    const sameCode = code !== null && code.id === existing.activationCodeId;
    if (!holdsSeat) checkCapacity(facts, claims, sameCode ? code.deviceLimit : null, device.id);
    const events = holdsSeat
      ? "[]"
      : seatEvents({ ...existing, entitlementId: e.id }, device.fingerprintHash, false);
    const [session] = await sql.queryAndCommit<LicenseSession>(REACTIVATE, [
      tenantId,
      e.id,
      at,
      device.id,
      deviceName,
      components,
      existing.id,
      ...lease,
      events,
    ]);
    return outcome(session, state, false);
  }

  checkCapacity(facts, claims, code?.deviceLimit ?? null, device?.id ?? null);
  const sessionId = randomUUID();
  const events = seatEvents({ id: sessionId, entitlementId: e.id, productIds }, hash, true);
  const values = [
    tenantId,
    e.id,
    at,
    device?.id ?? randomUUID(),
    deviceName,
    components,
    sessionId,
    code?.id ?? null,
    processId,
    productIds,
    ...lease,
    userId,
    meta.kind,
    meta.idempotencyKey,
    meta.idempotencyKey ? requestHash : null,
    events,
  ];
  const [session] = device
    ? await sql.queryAndCommit<LicenseSession>(NEW_SESSION_OF_DEVICE, values)
    : await sql.queryAndCommit<LicenseSession>(FIRST_ACTIVATION, [...values, hash]);
  return outcome(session, state, true);
}
