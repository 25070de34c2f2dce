import { z } from "zod";

/**
 * The `data` of every event type of docs/api.md "Event types and data". Data is non-strict: receivers
 * ignore unknown fields, and the service may add fields within an eventversion. Optional fields
 * are absent (never null) when the entity has no value, as docs/api.md says of routing keys.
 */

const ZUuid = z.string().uuid();
const ZTimestamp = z.string().datetime({ offset: true });
/** SHA-256 lowercase hex of the device fingerprint; absent when there is none. */
const ZFingerprintHash = z.string().regex(/^[0-9a-f]{64}$/);

/** docs/api.md: entitlement events carry routing keys, each only when the entitlement has one. */
export const ZEntitlementRoutingKeys = z.object({
  entitlementId: ZUuid,
  planCode: z.string().optional(),
  reference: z.string().optional(),
  externalReference: z.string().optional(),
  customerId: ZUuid.optional(),
  customerExternalReference: z.string().optional(),
  planSetId: ZUuid.optional(),
  billing: z
    .object({
      provider: z.string().optional(),
      providerSubscriptionReference: z.string().optional(),
      providerCustomerReference: z.string().optional(),
    })
    .optional(),
});

export const ZEntitlementActivatedData = ZEntitlementRoutingKeys;

export const ZEntitlementPlanChangeReviewedData = ZEntitlementRoutingKeys.extend({
  planChangeRequestId: ZUuid,
  approved: z.boolean(),
  requestedPlanCode: z.string(),
  reviewedAtUtc: ZTimestamp,
});

const ZSeatBase = ZEntitlementRoutingKeys.extend({
  sessionId: ZUuid,
  deviceFingerprintHash: ZFingerprintHash.optional(),
  productIds: z.array(ZUuid),
});

export const ZEntitlementSeatActivatedData = ZSeatBase.extend({ activatedAtUtc: ZTimestamp });
export const ZEntitlementSeatReleasedData = ZSeatBase.extend({ releasedAtUtc: ZTimestamp });
export const ZEntitlementDeviceResetData = ZSeatBase.extend({
  resetAtUtc: ZTimestamp,
  /** Resets so far including this one; one request resetting several devices reports the total after all. */
  transferCount: z.number().int().nonnegative(),
});

/**
 * Our event (docs/api.md names none for a renewal; docs/decisions.md "Entitlements"): the operational
 * renew moved the expiration from `previousExpirationDateTime` to `expirationDateTime`.
 */
export const ZEntitlementRenewedData = ZEntitlementRoutingKeys.extend({
  previousExpirationDateTime: ZTimestamp,
  expirationDateTime: ZTimestamp,
  renewedAtUtc: ZTimestamp,
});

const ZDeviceBase = ZEntitlementRoutingKeys.extend({
  deviceId: ZUuid,
  deviceFingerprintHash: ZFingerprintHash.optional(),
});
export const ZEntitlementDeviceBlockedData = ZDeviceBase.extend({ blockedAtUtc: ZTimestamp });
export const ZEntitlementDeviceUnblockedData = ZDeviceBase.extend({ unblockedAtUtc: ZTimestamp });

/** `admin`, `self-service`, `privacy`, or the scheme of a connected system. */
const ZOrigin = z.string().min(1);

export const ZUserCreatedData = z.object({
  id: ZUuid,
  externalReference: z.string().nullable(),
  origin: ZOrigin,
  userType: z.enum(["Consumer", "Device"]),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  roles: z.array(z.string()),
  organizationIds: z.array(ZUuid),
  isApproved: z.boolean(),
  isBlocked: z.boolean(),
});
export const ZUserUpdatedData = ZUserCreatedData.extend({ changedFields: z.array(z.string()).min(1) });
export const ZUserDeletedData = z.object({
  userId: ZUuid,
  externalReference: z.string().nullable(),
  origin: ZOrigin,
  userType: z.enum(["Consumer", "Device"]),
});

/** Invoice details are omitted (docs/api.md). */
export const ZOrganizationCreatedData = z.object({
  id: ZUuid,
  externalReference: z.string().nullable(),
  origin: ZOrigin,
  parentId: ZUuid.nullable(),
  organizationType: z.string().nullable(),
  name: z.string(),
  emailDomain: z.string().nullable(),
  country: z.string().nullable(),
});
export const ZOrganizationUpdatedData = ZOrganizationCreatedData.extend({
  changedFields: z.array(z.string()).min(1),
});
export const ZOrganizationDeletedData = z.object({
  organizationId: ZUuid,
  externalReference: z.string().nullable(),
  origin: ZOrigin,
});

/**
 * Our decision (the published interface leaves these data fields open); see docs/decisions.md. `severity` is the
 * overage severity the `severities` filter matches (a quotaUsageLevel value such as `None`).
 */
export const ZMeteredUsageOverageStatusChangedData = ZEntitlementRoutingKeys.extend({
  monitoredAssetId: ZUuid,
  metricName: z.string(),
  usageKind: z.enum(["Metered", "Balance"]),
  previousSeverity: z.string(),
  severity: z.string(),
  tierName: z.string().optional(),
  usage: z.number(),
  limit: z.number().optional(),
  changedAtUtc: ZTimestamp,
  /** Metered meters: the consumption period the usage is in (`lifetime` or `<unit>:<UTC start>`). */
  periodKey: z.string().optional(),
  periodStart: ZTimestamp.optional(),
  periodEnd: ZTimestamp.optional(),
});

export const ZRegistrationChallengeData = z.object({ challenge: z.string().min(16) });

/** docs/decisions.md "Webhooks": the service changed a subscription's state itself (not docs/api.md's list). */
export const ZSubscriptionStateChangedData = z.object({
  subscriptionId: ZUuid,
  displayName: z.string(),
  previousState: z.string(),
  state: z.string(),
  /** `ClientRevoked`: the integration's credential that owns the subscription was revoked. */
  reason: z.enum(["ClientRevoked"]),
  ownerClientId: z.string().nullable(),
  changedAtUtc: ZTimestamp,
});
