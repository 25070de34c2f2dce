import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import { sqlOf } from "../../../db/sql.ts";
import { isOpenTransaction } from "../../../db/tenant-db.ts";
import type { DomainContext } from "../../context.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import { contactTerms, durationMs, leaseTerms } from "../activation/lease-terms.ts";
import { licenseState } from "../activation/license-state.ts";
import type { LicenseState } from "../tokens/license-token.ts";
import { knownEntitlement } from "./known-entitlements.ts";
import { CONTACT_SESSION_CHECK_IN, CONTACT_SESSION_RENEW } from "./session-sql.ts";

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
 * Renew or check-in as one autocommit statement (docs/architecture.md section 11: no BEGIN/COMMIT round
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
  const known = knownEntitlement(tenantId, entitlementId);
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
