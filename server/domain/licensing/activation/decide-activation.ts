import { randomUUID } from "node:crypto";
import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { inSqlTransaction, type SqlTx } from "../../../db/sql.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { ZActivationPolicy, ZClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import { routingKeysFrom } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import { outboxRows } from "../../webhooks/events/emit-event.ts";
import { fingerprintHash } from "../devices/fingerprint-hash.ts";
import { seatActivatedEvents } from "../sessions/seat-events.ts";
import type { LicenseState } from "../tokens/license-token.ts";
import type { ActivationMeta, ActivationOutcome } from "./activation-outcome.ts";
import type { ActivationFacts } from "./activation-facts.ts";
import {
  activationRequestHash,
  isIdempotencyKeyTaken,
  keyReused,
  previousSession,
} from "./activation-idempotency.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import {
  ACTIVATION_FACTS,
  DEVICE_SESSIONS,
  FIRST_ACTIVATION,
  LOCK_ENTITLEMENT,
  NEW_SESSION_OF_DEVICE,
  REACTIVATE,
} from "./activation-sql.ts";
import { checkCapacity, checkEndOfLife } from "./check-capacity.ts";
import { checkPolicy } from "./check-policy.ts";
import { findDevice } from "./find-device.ts";
import { durationMs, leaseTerms } from "./lease-terms.ts";
import { licenseStateAt, replayState } from "./license-state.ts";

/** The code the request named, as the decision needs it. */
export type ActivationCodeRef = { id: string; deviceLimit: number | null };

/**
 * The decision once the tenant and entitlement are known, in `db`'s transaction when it is one
 * (the offline issue under an Idempotency-Key), else in a pg transaction of its own: the
 * entitlement's lock, one read of the facts, one write with the events, commit (docs/architecture.md
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
    const previous = previousSession(facts.previous, e, { ...request, codeId: code?.id ?? null });
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
