import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import type { SqlTx } from "../../../db/sql.ts";
import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import {
  ZClaimBasedActivation,
  type TClaimBasedActivation,
} from "../../entitlements/entitlement/policies.schemas.ts";
import { routingKeysFrom } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import type { TSessionLeaseResponse } from "../activation/activation.schemas.ts";
import { contactTerms } from "../activation/lease-terms.ts";
import { rememberEntitlement, reviveEntitlement } from "./known-entitlements.ts";
import { LOCK_SESSION, LOCK_SESSION_ENTITLEMENT, SEATS_HELD, TOUCH_SESSION } from "./session-sql.ts";

export const noActiveSession = () =>
  new AppError(
    "license.no_active_session",
    "The session no longer exists (released, reset, blocked or expired); activate again.",
  );

type BillingRefs = {
  provider: string | null;
  providerSubscriptionReference: string | null;
  providerCustomerReference: string | null;
};

export type LiveSession = {
  session: LicenseSession;
  entitlement: Entitlement;
  /** The entitlement row's version (its xmin) as read. */
  entitlementVersion: string;
  claims: TClaimBasedActivation;
  fingerprintHash: string;
  hasGrants: boolean;
  /** The tenant's active signing key id, read with the lock (the token is signed after commit). */
  activeKid: string | null;
  /** The events' routing keys, when the lock was asked for them. */
  routingKeys: ReturnType<typeof routingKeysFrom> | null;
};

type LockRow = LicenseSession & {
  fingerprintHash: string;
  hasGrants: boolean;
  activeKid: string | null;
  customerExternalReference: string | null;
  billing: BillingRefs | null;
  entitlement: Record<string, unknown>;
  entitlementVersion: string;
};

/**
 * The session a session call names, locked for the call, in one statement: 409
 * `license.no_active_session` when it was revoked (released, reset, blocked, swept), its grace has
 * run out, or its entitlement is gone. `withRoutingKeys` also reads what the events' routing keys need.
 */
export async function lockLiveSession(
  sql: SqlTx,
  tenantId: string,
  sessionId: string,
  at: Date,
  options: { withRoutingKeys?: boolean } = {},
): Promise<LiveSession> {
  const withKeys = options.withRoutingKeys ?? false;
  const [row] = await sql.query<LockRow>(LOCK_SESSION, [tenantId, sessionId, withKeys]);
  if (!row || row.revokedAt || row.graceExpiresAt <= at || row.entitlement.status !== "Published")
    throw noActiveSession();
  const {
    fingerprintHash,
    hasGrants,
    activeKid,
    customerExternalReference,
    billing,
    entitlement: json,
    entitlementVersion,
    ...session
  } = row;
  const entitlement = reviveEntitlement(json);
  const claims = ZClaimBasedActivation.parse(entitlement.claimBasedActivation ?? {});
  rememberEntitlement(tenantId, { version: entitlementVersion, entitlement, claims });
  return {
    session,
    entitlement,
    entitlementVersion,
    claims,
    fingerprintHash,
    hasGrants,
    activeKid,
    routingKeys: withKeys ? routingKeysFrom(entitlement, customerExternalReference, billing) : null,
  };
}

/**
 * The lock for renew and check-in. A session that holds its seat needs only its own lock (the
 * common, fast case). One that lost its seat (inactivity) takes one again if one is free (409
 * `license.no_seat_available` otherwise), which needs the entitlement's lock too so seats are
 * counted alone. Taking it after the session's lock can, rarely, deadlock with an activation of
 * the same device; PostgreSQL aborts one of the two and inSqlTransaction runs it again.
 */
export async function lockSessionForContact(
  sql: SqlTx,
  tenantId: string,
  sessionId: string,
  at: Date,
): Promise<LiveSession & { retakesSeat: boolean }> {
  const live = await lockLiveSession(sql, tenantId, sessionId, at);
  if (live.session.seatHeldUntil > at) return { ...live, retakesSeat: false };
  await sql.query(LOCK_SESSION_ENTITLEMENT, [tenantId, sessionId]);
  const relocked = await lockLiveSession(sql, tenantId, sessionId, at, { withRoutingKeys: true });
  const [{ held }] = await sql.query<{ held: number }>(SEATS_HELD, [
    tenantId,
    relocked.entitlement.id,
    at,
    relocked.claims.numberOfSeats,
  ]);
  if (held >= relocked.claims.numberOfSeats)
    throw new AppError(
      "license.no_seat_available",
      `All ${relocked.claims.numberOfSeats} seats of this license are in use.`,
    );
  return { ...relocked, retakesSeat: true };
}

/** Records a contact on the session and its device, with the contact's events, in one statement. */
export async function touchSession(
  sql: SqlTx,
  tenantId: string,
  sessionId: string,
  data: {
    at: Date;
    leaseExpiresAt?: Date;
    graceExpiresAt?: Date;
    seatHeldUntil: Date;
    validUntil?: Date | null;
  },
  outboxRows = "[]",
): Promise<LicenseSession> {
  // The last statement of the locking path: its COMMIT goes with it.
  const [session] = await sql.queryAndCommit<LicenseSession>(TOUCH_SESSION, [
    tenantId,
    sessionId,
    data.at,
    data.seatHeldUntil,
    data.leaseExpiresAt ?? null,
    data.graceExpiresAt ?? null,
    data.validUntil !== undefined,
    data.validUntil ?? null,
    outboxRows,
  ]);
  return session;
}

export function toSessionLeaseResponse(
  session: LicenseSession,
  claims: TClaimBasedActivation,
): TSessionLeaseResponse {
  const live = !session.revokedAt;
  return {
    sessionId: session.id,
    entitlementId: session.entitlementId,
    state: live ? "Active" : "Released",
    leaseExpiresAt: session.leaseExpiresAt.toISOString(),
    graceExpiresAt: session.graceExpiresAt.toISOString(),
    seatHeldUntil: session.seatHeldUntil.toISOString(),
    nextCheckInDueAt:
      live && session.lastContactAt
        ? (contactTerms(
            claims,
            session.leaseExpiresAt,
            session.lastContactAt,
          ).nextCheckInDueAt?.toISOString() ?? null)
        : null,
    lastContactAt: session.lastContactAt?.toISOString() ?? null,
  };
}

/**
 * A session call names its session in the path; the caller must be that session's license token
 * (docs/api.md "Authentication" item 5): any other credential, or another session's token, is refused.
 */
export function assertSessionCaller(ctx: DomainContext, sessionId: string): void {
  if (ctx.actor.kind !== "license" || ctx.actor.id !== sessionId) {
    throw new AppError("license.session_token_rejected", "The license token belongs to another session.");
  }
}
