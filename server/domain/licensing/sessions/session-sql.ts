import type { Statement } from "../../../db/sql.ts";
import { outboxCteText } from "../../webhooks/events/emit-event.ts";

/**
 * The statements of the session calls (renew, check-in, release; docs/architecture.md section 11): one
 * locking read, one write with its events, commit. Every statement filters `$1`, the tenant.
 */

/**
 * The session (locked), its device's fingerprint hash and its entitlement, whether the
 * entitlement has add-on grants and the tenant's active signing key id (for the token signed
 * after commit); with `$3` also what the events' routing keys need. $2 session.
 */
export const LOCK_SESSION: Statement = {
  name: "licensing.lock_session",
  text: `
SELECT s.*, d."fingerprintHash", to_jsonb(e.*) AS entitlement, e.xmin::text AS "entitlementVersion",
  EXISTS (SELECT 1 FROM "AddOnGrant" g WHERE g."tenantId" = e."tenantId" AND g."entitlementId" = e.id AND NOT g."isRevoked") AS "hasGrants",
  (SELECT k.kid FROM "SigningKey" k WHERE k."tenantId" = e."tenantId" AND k.status = 'Active' ORDER BY k."createdAt" DESC LIMIT 1) AS "activeKid",
  CASE WHEN $3::boolean THEN
    CASE WHEN e."customerKind" = 'Organization'
      THEN (SELECT o."externalReference" FROM "CustomerOrganization" o WHERE o."tenantId" = e."tenantId" AND o.id = e."customerId")
      ELSE (SELECT u."externalReference" FROM "CustomerUser" u WHERE u."tenantId" = e."tenantId" AND u.id = e."customerId") END
  END AS "customerExternalReference",
  CASE WHEN $3::boolean THEN
    (SELECT jsonb_build_object('provider', b.provider, 'providerSubscriptionReference', b."providerSubscriptionReference", 'providerCustomerReference', b."providerCustomerReference")
      FROM "EntitlementBilling" b WHERE b."tenantId" = e."tenantId" AND b."entitlementId" = e.id LIMIT 1)
  END AS billing
FROM "LicenseSession" s
JOIN "Device" d ON d.id = s."deviceId" AND d."tenantId" = s."tenantId"
JOIN "Entitlement" e ON e.id = s."entitlementId" AND e."tenantId" = s."tenantId"
WHERE s."tenantId" = $1::uuid AND s.id = $2::uuid
FOR UPDATE OF s`,
};

/** The session's entitlement, locked, before the session: a call that takes a seat again counts seats alone. $2 session. */
export const LOCK_SESSION_ENTITLEMENT: Statement = {
  name: "licensing.lock_session_entitlement",
  text: `
SELECT e.id FROM "Entitlement" e
JOIN "LicenseSession" s ON s."entitlementId" = e.id AND s."tenantId" = e."tenantId"
WHERE s."tenantId" = $1::uuid AND s.id = $2::uuid
FOR UPDATE OF e`,
};

/** Seats held on the entitlement at `$3`, counted up to `$4` (the seat count: knowing all are taken is enough). $2 entitlement. */
export const SEATS_HELD: Statement = {
  name: "licensing.seats_held",
  text: `
SELECT count(*)::int AS held FROM (
  SELECT 1 FROM "LicenseSession"
  WHERE "tenantId" = $1::uuid AND "entitlementId" = $2::uuid AND "revokedAt" IS NULL AND "seatHeldUntil" > $3::timestamptz
  LIMIT $4::int) h`,
};

/**
 * A contact (renew, check-in) on the session and its device, with its events (`$9`, outboxRows).
 * $2 session, $3 now, $4 seatHeldUntil, $5 leaseExpiresAt and $6 graceExpiresAt (null: unchanged),
 * $7 whether validUntil changes, $8 validUntil.
 */
export const TOUCH_SESSION: Statement = {
  name: "licensing.touch_session",
  text: `
WITH s AS (
  UPDATE "LicenseSession" SET
    "lastContactAt" = $3::timestamptz,
    "seatHeldUntil" = $4::timestamptz,
    "leaseExpiresAt" = COALESCE($5::timestamptz, "leaseExpiresAt"),
    "graceExpiresAt" = COALESCE($6::timestamptz, "graceExpiresAt"),
    "validUntil" = CASE WHEN $7::boolean THEN $8::timestamptz ELSE "validUntil" END,
    "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = $2::uuid
  RETURNING *),
d AS (UPDATE "Device" SET "lastSeenAt" = $3::timestamptz, "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = (SELECT "deviceId" FROM s)),
${outboxCteText(9)}
SELECT * FROM s`,
};

/** docs/api.md: release frees the seat; the session ends (`Released`), with `Entitlement.SeatReleased` ($4). $2 session, $3 now. */
export const RELEASE_SESSION: Statement = {
  name: "licensing.release_session",
  text: `
WITH s AS (
  UPDATE "LicenseSession" SET "revokedAt" = $3::timestamptz, "revocationReason" = 'Released',
    "seatHeldUntil" = $3::timestamptz, "lastContactAt" = $3::timestamptz, "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = $2::uuid
  RETURNING *),
d AS (UPDATE "Device" SET "lastSeenAt" = $3::timestamptz, "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = (SELECT "deviceId" FROM s)),
${outboxCteText(4)}
SELECT * FROM s`,
};

/**
 * The whole of a renew or check-in whose session holds its seat, in one autocommit statement
 * (docs/architecture.md section 11): it updates the session and its device only while the session is live
 * (not revoked, inside its grace, holding its seat at `$3`) and its entitlement is the very row
 * version the caller judged the call on (`$10`, the row's xmin), else it changes nothing and
 * answers no row (the caller then takes the locking path, which refuses or retakes a seat).
 * The seat hold is the earlier of the (new) lease and `$4` (now + inactivityTimeout; null when the
 * license is not inactivity-based), as contactTerms computes it. $2 session, $3 now, $5
 * leaseExpiresAt and $6 graceExpiresAt (null: unchanged), $7 whether validUntil changes, $8
 * validUntil, $9 entitlement. `withToken` also reads what the token signed after it needs.
 */
const contactSessionText = (withToken: boolean) => `
WITH s AS (
  UPDATE "LicenseSession" SET
    "lastContactAt" = $3::timestamptz,
    "seatHeldUntil" = LEAST(COALESCE($5::timestamptz, "leaseExpiresAt"), $4::timestamptz),
    "leaseExpiresAt" = COALESCE($5::timestamptz, "leaseExpiresAt"),
    "graceExpiresAt" = COALESCE($6::timestamptz, "graceExpiresAt"),
    "validUntil" = CASE WHEN $7::boolean THEN $8::timestamptz ELSE "validUntil" END,
    "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = $2::uuid AND "entitlementId" = $9::uuid
    AND "revokedAt" IS NULL AND "graceExpiresAt" > $3::timestamptz AND "seatHeldUntil" > $3::timestamptz
    AND EXISTS (SELECT 1 FROM "Entitlement" e WHERE e."tenantId" = $1::uuid AND e.id = $9::uuid AND e.xmin = $10::text::xid)
  RETURNING *),
d AS (UPDATE "Device" SET "lastSeenAt" = $3::timestamptz, "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = (SELECT "deviceId" FROM s)
  RETURNING "fingerprintHash")
SELECT s.*, d."fingerprintHash"${
  withToken
    ? `,
  EXISTS (SELECT 1 FROM "AddOnGrant" g WHERE g."tenantId" = $1::uuid AND g."entitlementId" = $9::uuid AND NOT g."isRevoked") AS "hasGrants",
  (SELECT k.kid FROM "SigningKey" k WHERE k."tenantId" = $1::uuid AND k.status = 'Active' ORDER BY k."createdAt" DESC LIMIT 1) AS "activeKid"`
    : ""
}
FROM s, d`;

export const CONTACT_SESSION_RENEW: Statement = {
  name: "licensing.contact_session_renew",
  text: contactSessionText(true),
};
export const CONTACT_SESSION_CHECK_IN: Statement = {
  name: "licensing.contact_session_check_in",
  text: contactSessionText(false),
};
