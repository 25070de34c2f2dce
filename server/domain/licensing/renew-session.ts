import type { Db } from "../../db/client.ts";
import { inTransaction, tenantDb } from "../../db/tenant-db.ts";
import { now } from "../../clock.ts";
import { emitEvents } from "../webhooks/emit-event.ts";
import { entitlementRoutingKeys } from "./entitlement-routing-keys.ts";
import { issueLicenseToken } from "./issue-license-token.ts";
import { durationMs, leaseTerms } from "./lease-terms.ts";
import { licenseState } from "./license-state.ts";
import { seatActivatedEvents } from "./seat-events.ts";
import { lockSessionForContact, touchSession, toSessionLeaseResponse } from "./session-access.ts";

/**
 * POST /activations/{sessionId}/renew: extends the lease from now (never past the license's end)
 * without re-activating and answers a fresh token. The license is judged again: a lapsed
 * subscription or a license past its grace stops renewing; disabling activations does not end
 * running sessions. A session that lost its seat (inactivity) takes one again if one is free.
 */
export async function renewSession(base: Db, tenantId: string, sessionId: string) {
  const db = tenantDb(base, tenantId);
  const renewed = await inTransaction(
    db,
    async (tx) => {
      const at = now();
      const { session, entitlement, claims, fingerprintHash, hasGrants, retakesSeat } = await lockSessionForContact(tx, tenantId, sessionId, at);
      const state = licenseState(entitlement, durationMs(claims.gracePeriod), at);
      const terms = leaseTerms(entitlement, claims, "Online", state, at);
      const updated = await touchSession(tx, tenantId, session.id, { at, ...terms });
      if (retakesSeat) await emitEvents(tx, seatActivatedEvents(tenantId, await entitlementRoutingKeys(tx, entitlement.id), session, fingerprintHash, at, false));
      return { session: updated, entitlement, claims, state, fingerprintHash, hasGrants };
    },
    { retryOnConflict: true },
  );
  const token = await issueLicenseToken(base, { tenantId, ...renewed });
  return { ...toSessionLeaseResponse(renewed.session, renewed.claims), token };
}
