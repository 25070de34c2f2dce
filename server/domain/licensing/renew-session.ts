import type { Db } from "../../db/client.ts";
import { inTransaction, tenantDb } from "../../db/tenant-db.ts";
import { AppError } from "../../http/errors.ts";
import { now } from "../../clock.ts";
import { emitEvent } from "../webhooks/emit-event.ts";
import { entitlementRoutingKeys } from "./entitlement-routing-keys.ts";
import { issueLicenseToken } from "./issue-license-token.ts";
import { durationMs, leaseTerms } from "./lease-terms.ts";
import type { LicenseState } from "./license-token.ts";
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
      const { session, entitlement, claims, fingerprintHash, hasGrants } = await lockSessionForContact(tx, tenantId, sessionId, at);
      if (entitlement.subscriptionStatus === "Lapsed") throw new AppError("license.subscription_lapsed", "The license's subscription has lapsed.");
      let state: LicenseState = entitlement.isEntitlementTrial ? "Trial" : "Active";
      if (entitlement.expirationDateTime && at >= entitlement.expirationDateTime) {
        if (entitlement.isEntitlementTrial) throw new AppError("license.trial_expired", "The trial has ended.");
        if (at.getTime() >= entitlement.expirationDateTime.getTime() + durationMs(claims.gracePeriod)) throw new AppError("license.expired", "The license has expired.");
        state = "Grace";
      }
      const retakesSeat = session.seatHeldUntil <= at;
      if (retakesSeat) {
        const held = await tx.licenseSession.count({ where: { entitlementId: entitlement.id, revokedAt: null, seatHeldUntil: { gt: at } } });
        if (held >= claims.numberOfSeats) throw new AppError("license.no_seat_available", `All ${claims.numberOfSeats} seats of this license are in use.`);
      }
      const terms = leaseTerms(entitlement, claims, "Online", state, at);
      const updated = await touchSession(tx, tenantId, session.id, { at, ...terms });
      if (retakesSeat) {
        const keys = await entitlementRoutingKeys(tx, entitlement.id);
        await emitEvent(tx, {
          tenantId, type: "Entitlement.SeatActivated", entityKind: "entitlement", entityId: entitlement.id, subject: `entitlements/${entitlement.id}`,
          data: { ...keys, sessionId: session.id, deviceFingerprintHash: fingerprintHash, productIds: session.productIds, activatedAtUtc: at.toISOString() },
        });
      }
      return { session: updated, entitlement, claims, state, fingerprintHash, hasGrants };
    },
    { retryOnConflict: true },
  );
  const token = await issueLicenseToken(base, { tenantId, ...renewed });
  return { ...toSessionLeaseResponse(renewed.session, renewed.claims), token };
}
