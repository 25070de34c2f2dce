import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import { sqlOf, type SqlTx } from "../../../db/sql.ts";
import { isOpenTransaction } from "../../../db/tenant-db.ts";
import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import {
  ZClaimBasedActivation,
  type TClaimBasedActivation,
} from "../../entitlements/entitlement/policies.schemas.ts";
import { routingKeysFrom } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import type { TSessionLeaseResponse } from "../activation/activation.schemas.ts";
import { contactTerms, durationMs, leaseTerms } from "../activation/lease-terms.ts";
import { licenseState } from "../activation/license-state.ts";
import type { LicenseState } from "../tokens/license-token.ts";
import {
  CONTACT_SESSION_CHECK_IN,
  CONTACT_SESSION_RENEW,
  LOCK_SESSION,
  LOCK_SESSION_ENTITLEMENT,
  SEATS_HELD,
  TOUCH_SESSION,
} from "./session-sql.ts";

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

/** An entitlement as a session call read it, with the row version (xmin) it was read at. */
type KnownEntitlement = { version: string; entitlement: Entitlement; claims: TClaimBasedActivation };

/**
 * Entitlements of this process's recent session calls, by tenant and id: versioned data (DESIGN.md
 * section 11, "Nothing recomputed"). Only contactWithoutLock reads them, and its statement changes
 * nothing unless the entitlement row is still at the version read, so a stale entry costs one
 * call the locking path and never a wrong judgement.
 */
const knownEntitlements = new Map<string, KnownEntitlement>();
/** At most this many entitlements are held; the oldest entry makes room. */
const MAX_KNOWN_ENTITLEMENTS = 10_000;

function rememberEntitlement(tenantId: string, known: KnownEntitlement): void {
  const key = `${tenantId}:${known.entitlement.id}`;
  knownEntitlements.delete(key);
  knownEntitlements.set(key, known);
  if (knownEntitlements.size > MAX_KNOWN_ENTITLEMENTS)
    knownEntitlements.delete(knownEntitlements.keys().next().value as string);
}

/** A far seat hold: contactTerms caps it with inactivityTimeout when the license has one. */
const UNCAPPED = new Date("9999-12-31T00:00:00Z");

type ContactRow = LicenseSession & {
  fingerprintHash: string;
  hasGrants?: boolean;
  activeKid?: string | null;
};

export type ContactWithoutLock = {
  session: LicenseSession;
  entitlement: Entitlement;
  claims: TClaimBasedActivation;
  fingerprintHash: string;
  hasGrants: boolean;
  activeKid: string | null;
  /** The license's state a renewal was judged in (null for a check-in). */
  state: LicenseState | null;
};

/**
 * Renew or check-in as one autocommit statement (DESIGN.md section 11: no BEGIN/COMMIT round
 * trips) in the common case: the session holds its seat and its license is the entitlement row
 * version this process judged before. The call is judged here on that version, exactly as the
 * locking path judges it, and CONTACT_SESSION_* writes only if the session is live, holds its
 * seat and the entitlement is still that version. Null when it cannot apply or changed nothing:
 * the caller takes the locking path, which refuses, retakes a seat, or judges the new version.
 * Inside a caller's transaction (Idempotency-Key) the locking path runs in it.
 */
export async function contactWithoutLock(
  ctx: DomainContext,
  sessionId: string,
  kind: "renew" | "check-in",
  at: Date,
): Promise<ContactWithoutLock | null> {
  if (ctx.actor.kind !== "license" || !ctx.actor.entitlementId || isOpenTransaction(ctx.db)) return null;
  const tenantId = ctx.tenantId;
  const entitlementId = ctx.actor.entitlementId;
  const known = knownEntitlements.get(`${tenantId}:${entitlementId}`);
  if (!known) return null;
  const { entitlement, claims } = known;
  let state: LicenseState | null = null;
  let lease: { leaseExpiresAt: Date; graceExpiresAt: Date; validUntil: Date | null } | null = null;
  let seatCap = contactTerms(claims, UNCAPPED, at).seatHeldUntil;
  if (kind === "renew") {
    try {
      state = licenseState(entitlement, durationMs(claims.gracePeriod), at);
    } catch {
      // A refusal is answered by the locking path, on the entitlement as it is now.
      return null;
    }
    const terms = leaseTerms(entitlement, claims, "Online", state, at);
    lease = terms;
    seatCap = terms.seatHeldUntil;
  }
  const values = [
    tenantId,
    sessionId,
    at,
    seatCap,
    lease?.leaseExpiresAt ?? null,
    lease?.graceExpiresAt ?? null,
    lease !== null,
    lease?.validUntil ?? null,
    entitlementId,
    known.version,
  ];
  const [row] =
    kind === "renew"
      ? await sqlOf(ctx.db).query<ContactRow>(CONTACT_SESSION_RENEW, values)
      : await sqlOf(ctx.db).query<ContactRow>(CONTACT_SESSION_CHECK_IN, values);
  if (!row) return null;
  const { fingerprintHash, hasGrants, activeKid, ...session } = row;
  return {
    session,
    entitlement,
    claims,
    fingerprintHash,
    hasGrants: hasGrants ?? false,
    activeKid: activeKid ?? null,
    state,
  };
}

/** `to_jsonb` gives timestamps as strings; the rest of the row is already in Prisma's shapes. */
function reviveEntitlement(json: Record<string, unknown>): Entitlement {
  const dates = [
    "notValidBeforeDateTime",
    "expirationDateTime",
    "anonymousTryIssuedAt",
    "anonymousTryPurgeDueAt",
    "createdAt",
    "updatedAt",
  ] as const;
  const out: Record<string, unknown> = { ...json };
  for (const key of dates) out[key] = json[key] == null ? null : new Date(json[key] as string);
  return out as Entitlement;
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
 * (SPEC.md "Authentication" item 5): any other credential, or another session's token, is refused.
 */
export function assertSessionCaller(ctx: DomainContext, sessionId: string): void {
  if (ctx.actor.kind !== "license" || ctx.actor.id !== sessionId) {
    throw new AppError("license.session_token_rejected", "The license token belongs to another session.");
  }
}
