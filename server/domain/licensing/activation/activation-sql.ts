import type { Statement } from "../../../db/sql.ts";
import { outboxCteText } from "../../webhooks/events/emit-event.ts";

/**
 * The statements of an activation (docs/architecture.md section 11): the entitlement's lock and one read of
 * every fact the decision needs (one round trip, behind BEGIN), then one write with its events
 * and COMMIT (one round trip). Every statement filters `$1`,
 * the tenant; `$2` is the entitlement throughout.
 */

/**
 * Locks the entitlement: activations of one license are serialized, so seats are never
 * over-allocated. The locked row is its latest committed version.
 */
export const LOCK_ENTITLEMENT: Statement = {
  name: "licensing.lock_entitlement",
  text: `SELECT * FROM "Entitlement" WHERE "tenantId" = $1::uuid AND id = $2::uuid FOR UPDATE`,
};

/**
 * The facts, in a statement of their own after the lock (a statement's snapshot is taken before it
 * waits for a lock, so reads made in the locking statement would miss what the previous holder
 * committed). It is sent in the lock's round trip (SqlTx.queries), so what it needs of the
 * entitlement it reads itself, from the row the lock holds: the seat count and floating flag of
 * its claims (with ZClaimBasedActivation's defaults; returned, and checked against the parsed
 * claims), its products and its customer. Then: the tenant's signing key id, product end of life,
 * the device by fingerprint hash with its sessions (those past their grace end now, reason
 * `LeaseExpired`; the one an activation returns), seats held: counted (up to the seat count) only
 * when the license's unrevoked sessions (EntitlementSessionCount, kept by triggers; an upper bound
 * of the seats held) reach the seat count, else that bound, which proves a seat is free. The devices
 * holding the code, what the events' routing keys need, and the session an Idempotency-Key made.
 * $3 now, $4 fingerprint hash, $5 whether the code limits devices, $6 code id, $7 Idempotency-Key,
 * $8 process id (compared on floating licenses only).
 */
export const ACTIVATION_FACTS: Statement = {
  name: "licensing.activation_facts",
  text: `
WITH ent AS (
  SELECT e."productIds", e."customerKind", e."customerId",
    CASE WHEN jsonb_typeof(e."claimBasedActivation"->'numberOfSeats') = 'number'
      THEN LEAST(GREATEST(floor((e."claimBasedActivation"->>'numberOfSeats')::numeric), 0), 1000000)::int
      ELSE 1 END AS "seatLimit",
    COALESCE(e."claimBasedActivation"->'isFloatingLicense' = 'true'::jsonb, false) AS floating
  FROM "Entitlement" e WHERE e."tenantId" = $1::uuid AND e.id = $2::uuid),
device AS (
  SELECT d.id, d."fingerprintHash", d."deviceName", d."isPreRegistered", d."isBlocked"
  FROM "Device" d WHERE d."tenantId" = $1::uuid AND d."entitlementId" = $2::uuid AND d."fingerprintHash" = $4::text),
ended AS (
  UPDATE "LicenseSession" SET "revokedAt" = $3::timestamptz, "revocationReason" = 'LeaseExpired', "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND "deviceId" = (SELECT id FROM device) AND "revokedAt" IS NULL AND "graceExpiresAt" <= $3::timestamptz
  RETURNING id),
unrevoked AS (
  SELECT COALESCE((SELECT c.unrevoked FROM "EntitlementSessionCount" c WHERE c."tenantId" = $1::uuid AND c."entitlementId" = $2::uuid), 0)
    - (SELECT count(*)::int FROM ended) AS unrevoked)
SELECT
  (SELECT "seatLimit" FROM ent) AS "seatLimit",
  (SELECT floating FROM ent) AS floating,
  (SELECT k.kid FROM "SigningKey" k WHERE k."tenantId" = $1::uuid AND k.status = 'Active' ORDER BY k."createdAt" DESC LIMIT 1) AS "activeKid",
  (SELECT bool_and(p."expirationDate" IS NOT NULL AND p."expirationDate" <= $3::timestamptz) FROM "Product" p
    WHERE p."tenantId" = $1::uuid AND p.id = ANY((SELECT "productIds" FROM ent)::uuid[])) AS "allProductsEnded",
  (SELECT to_jsonb(device) FROM device) AS device,
  (SELECT count(*)::int FROM "LicenseSession" s WHERE s."tenantId" = $1::uuid AND s."deviceId" = (SELECT id FROM device)) AS "deviceSessionCount",
  (SELECT jsonb_build_object('id', s.id, 'seatHeldUntil', s."seatHeldUntil", 'activationCodeId', s."activationCodeId", 'productIds', s."productIds")
    FROM "LicenseSession" s
    WHERE s."tenantId" = $1::uuid AND s."deviceId" = (SELECT id FROM device) AND s."revokedAt" IS NULL AND s."graceExpiresAt" > $3::timestamptz
      AND (NOT (SELECT floating FROM ent) OR s."processId" IS NOT DISTINCT FROM $8::text)
    ORDER BY s."activatedAt" DESC LIMIT 1) AS existing,
  CASE WHEN (SELECT unrevoked FROM unrevoked) < (SELECT "seatLimit" FROM ent) THEN (SELECT unrevoked FROM unrevoked)
    ELSE (SELECT count(*)::int FROM (SELECT 1 FROM "LicenseSession" s
      WHERE s."tenantId" = $1::uuid AND s."entitlementId" = $2::uuid AND s."revokedAt" IS NULL AND s."seatHeldUntil" > $3::timestamptz
      LIMIT (SELECT "seatLimit" FROM ent)) held) END AS "seatsHeld",
  (SELECT array_agg(DISTINCT s."deviceId")::text[] FROM "LicenseSession" s
    WHERE $5::boolean AND s."tenantId" = $1::uuid AND s."activationCodeId" = $6::uuid
      AND s."revokedAt" IS NULL AND s."seatHeldUntil" > $3::timestamptz) AS "codeHolders",
  (SELECT jsonb_build_object('provider', b.provider, 'providerSubscriptionReference', b."providerSubscriptionReference", 'providerCustomerReference', b."providerCustomerReference")
    FROM "EntitlementBilling" b WHERE b."tenantId" = $1::uuid AND b."entitlementId" = $2::uuid LIMIT 1) AS billing,
  CASE WHEN (SELECT "customerKind" FROM ent) = 'Organization'
    THEN (SELECT o."externalReference" FROM "CustomerOrganization" o WHERE o."tenantId" = $1::uuid AND o.id = (SELECT "customerId" FROM ent))
    ELSE (SELECT u."externalReference" FROM "CustomerUser" u WHERE u."tenantId" = $1::uuid AND u.id = (SELECT "customerId" FROM ent)) END AS "customerExternalReference",
  EXISTS (SELECT 1 FROM "AddOnGrant" g WHERE g."tenantId" = $1::uuid AND g."entitlementId" = $2::uuid AND NOT g."isRevoked") AS "hasGrants",
  (SELECT to_jsonb(s) || jsonb_build_object('fingerprintHash', d."fingerprintHash")
    FROM "LicenseSession" s JOIN "Device" d ON d.id = s."deviceId" AND d."tenantId" = s."tenantId"
    WHERE $7::text IS NOT NULL AND s."tenantId" = $1::uuid AND s."idempotencyKey" = $7::text) AS previous`,
};

/**
 * A known device's sessions (after a re-key by components; the fingerprint's own device gets them
 * in ACTIVATION_FACTS): those past their grace end now, and the one an activation returns.
 * $2 device, $3 now, $4 floating, $5 process id.
 */
export const DEVICE_SESSIONS: Statement = {
  name: "licensing.device_sessions",
  text: `
WITH ended AS (
  UPDATE "LicenseSession" SET "revokedAt" = $3::timestamptz, "revocationReason" = 'LeaseExpired', "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND "deviceId" = $2::uuid AND "revokedAt" IS NULL AND "graceExpiresAt" <= $3::timestamptz
  RETURNING id)
SELECT
  (SELECT count(*)::int FROM "LicenseSession" s WHERE s."tenantId" = $1::uuid AND s."deviceId" = $2::uuid) AS "deviceSessionCount",
  (SELECT jsonb_build_object('id', s.id, 'seatHeldUntil', s."seatHeldUntil", 'activationCodeId', s."activationCodeId", 'productIds', s."productIds")
    FROM "LicenseSession" s
    WHERE s."tenantId" = $1::uuid AND s."deviceId" = $2::uuid AND s."revokedAt" IS NULL AND s."graceExpiresAt" > $3::timestamptz
      AND (NOT $4::boolean OR s."processId" IS NOT DISTINCT FROM $5::text)
    ORDER BY s."activatedAt" DESC LIMIT 1) AS existing`,
};

/**
 * The license's devices that share at least one presented component (name and hash), by the
 * DeviceComponent key, most shared first: never a scan of the license's devices under its lock.
 * $2 entitlement, $3 component names, $4 their hashes.
 */
export const DEVICES_SHARING_COMPONENTS: Statement = {
  name: "licensing.devices_sharing_components",
  text: `
SELECT d.id, d."fingerprintHash", d."deviceName", d."isPreRegistered", d."isBlocked", d."fingerprintHistory",
  (SELECT count(*) FROM jsonb_object_keys(d.components))::int AS stored, m.equal
FROM (
  SELECT c."deviceId", count(*)::int AS equal FROM "DeviceComponent" c
  WHERE c."tenantId" = $1::uuid AND c."entitlementId" = $2::uuid
    AND (c.name, c."valueHash") IN (SELECT * FROM unnest($3::text[], $4::text[]))
  GROUP BY c."deviceId") m
JOIN "Device" d ON d."tenantId" = $1::uuid AND d.id = m."deviceId" AND jsonb_typeof(d.components) = 'object'
ORDER BY m.equal DESC, d."createdAt" ASC
LIMIT 64`,
};

/** A re-key: the device is known by the new fingerprint hash ($3) from now on; the entry ($4) is appended to its history. $2 device, $5 now. */
export const REKEY_DEVICE: Statement = {
  name: "licensing.rekey_device",
  text: `
UPDATE "Device" SET "fingerprintHash" = $3::text,
  "fingerprintHistory" = COALESCE("fingerprintHistory", '[]'::jsonb) || jsonb_build_array($4::jsonb),
  "updatedAt" = $5::timestamptz
WHERE "tenantId" = $1::uuid AND id = $2::uuid
RETURNING id, "fingerprintHash", "deviceName", "isPreRegistered", "isBlocked"`,
};

/**
 * A contact on a known device: last seen, a new display name ($5, null keeps it), and its
 * components ($6) only if it has none yet (a device's components are never overwritten), with
 * their DeviceComponent rows. Shared by the write statements below; $3 now, $4 device.
 */
const touchDevice = `
old_device AS (SELECT components FROM "Device" WHERE "tenantId" = $1::uuid AND id = $4::uuid),
dev AS (
  UPDATE "Device" SET "lastSeenAt" = $3::timestamptz, "updatedAt" = $3::timestamptz,
    "deviceName" = COALESCE($5::text, "deviceName"), components = COALESCE(components, $6::jsonb)
  WHERE "tenantId" = $1::uuid AND id = $4::uuid
  RETURNING "deviceName"),
dev_components AS (
  INSERT INTO "DeviceComponent" ("tenantId", "entitlementId", name, "valueHash", "deviceId")
  SELECT $1::uuid, $2::uuid, c.key, c.value, $4::uuid FROM old_device, jsonb_each_text($6::jsonb) c
  WHERE old_device.components IS NULL
  ON CONFLICT DO NOTHING)`;

/**
 * A re-activation: the device's unrevoked session ($7) gets a fresh lease (and the new display
 * name, $5), with its events ($12: `Entitlement.SeatActivated` when it takes its seat again, else
 * none). $8 leaseExpiresAt, $9 graceExpiresAt, $10 seatHeldUntil, $11 validUntil.
 */
export const REACTIVATE: Statement = {
  name: "licensing.reactivate",
  text: `
WITH ${touchDevice},
s AS (
  UPDATE "LicenseSession" SET "leaseExpiresAt" = $8::timestamptz, "graceExpiresAt" = $9::timestamptz,
    "seatHeldUntil" = $10::timestamptz, "validUntil" = $11::timestamptz, "lastContactAt" = $3::timestamptz,
    "deviceName" = COALESCE($5::text, "deviceName"), "updatedAt" = $3::timestamptz
  WHERE "tenantId" = $1::uuid AND id = $7::uuid
  RETURNING *),
${outboxCteText(12)}
SELECT * FROM s`,
};

const sessionColumns = `id, "tenantId", "entitlementId", "deviceId", "activationCodeId", "processId", "deviceName", "productIds", "activatedAt",
    "leaseExpiresAt", "graceExpiresAt", "seatHeldUntil", "validUntil", "lastContactAt", "activatedByUserId", "activationKind",
    "idempotencyKey", "idempotencyRequestHash", "createdAt", "updatedAt"`;

/**
 * The values of a new session. Parameters of the new-session statements: $1 tenant, $2
 * entitlement, $3 now, $4 device, $5 display name, $6 components, $7 session id, $8 code, $9
 * process, $10 products, $11-$14 leaseExpiresAt, graceExpiresAt, seatHeldUntil, validUntil,
 * $15 user, $16 kind, $17-$18 Idempotency-Key and request hash, $19 events (outboxRows).
 */
const sessionValues = (
  deviceName: string,
) => `$7::uuid, $1::uuid, $2::uuid, $4::uuid, $8::uuid, $9::text, ${deviceName}, $10::uuid[], $3::timestamptz,
    $11::timestamptz, $12::timestamptz, $13::timestamptz, $14::timestamptz, $3::timestamptz, $15::uuid, $16::text, $17::text, $18::text, $3::timestamptz, $3::timestamptz`;

/** A new session of a known device, with `Entitlement.Activated` and `Entitlement.SeatActivated`. */
export const NEW_SESSION_OF_DEVICE: Statement = {
  name: "licensing.new_session_of_device",
  text: `
WITH ${touchDevice},
s AS (
  INSERT INTO "LicenseSession" (${sessionColumns})
  SELECT ${sessionValues(`COALESCE($5::text, (SELECT "deviceName" FROM dev))`)}
  RETURNING *),
${outboxCteText(19)}
SELECT * FROM s`,
};

/**
 * The hot path, a first activation of a new device: the device, its component rows, its session
 * and the two events ($19) in one statement, so the entitlement's lock is held for as few round
 * trips as possible. Parameters as NEW_SESSION_OF_DEVICE, and $20 the fingerprint hash.
 */
export const FIRST_ACTIVATION: Statement = {
  name: "licensing.first_activation",
  text: `
WITH d AS (
  INSERT INTO "Device" (id, "tenantId", "entitlementId", "fingerprintHash", "deviceName", components, "lastSeenAt", "createdAt", "updatedAt")
  VALUES ($4::uuid, $1::uuid, $2::uuid, $20::text, $5::text, $6::jsonb, $3::timestamptz, $3::timestamptz, $3::timestamptz)),
dc AS (
  INSERT INTO "DeviceComponent" ("tenantId", "entitlementId", name, "valueHash", "deviceId")
  SELECT $1::uuid, $2::uuid, c.key, c.value, $4::uuid FROM jsonb_each_text($6::jsonb) c),
s AS (
  INSERT INTO "LicenseSession" (${sessionColumns})
  VALUES (${sessionValues("$5::text")})
  RETURNING *),
${outboxCteText(19)}
SELECT * FROM s`,
};
