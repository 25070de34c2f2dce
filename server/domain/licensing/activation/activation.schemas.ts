import { z } from "zod";

/** Per-component one-way hashes of device identity (docs/api.md "Offline activation artifacts"). */
export const ZComponents = z
  .record(z.string().trim().min(1).max(100), z.string().min(1).max(512))
  .refine((m) => Object.keys(m).length <= 32, "At most 32 components.");
export type TComponents = z.infer<typeof ZComponents>;

export const ZApplicationInfo = z.object({
  applicationName: z.string().max(200).nullable().optional(),
  installedApplicationVersion: z.string().max(100).nullable().optional(),
  applicationInstanceName: z.string().max(200).nullable().optional(),
  applicationScope: z.string().max(200).nullable().optional(),
});

/**
 * POST /activations/jwt and /activations/license. docs/api.md names activationCode, fingerprint and
 * useInteractiveUser; the rest are ours (docs/decisions.md): `productCode` for
 * activationPolicy.requireProductCode, `deviceName` and `processId` for the session read model
 * (a process id makes one seat per process on a floating license), `components` for component
 * matching, `applicationInfo` for diagnostics.
 */
export const ZActivationRequest = z.strictObject({
  activationCode: z.string().trim().min(1).max(200).nullable().optional(),
  fingerprint: z.string().min(1, "A device fingerprint is required.").max(4096),
  useInteractiveUser: z.boolean().optional(),
  productCode: z.string().trim().min(1).max(100).nullable().optional(),
  deviceName: z.string().trim().min(1).max(200).nullable().optional(),
  processId: z.string().trim().min(1).max(200).nullable().optional(),
  components: ZComponents.nullable().optional(),
  applicationInfo: ZApplicationInfo.nullable().optional(),
});
export type TActivationRequest = z.infer<typeof ZActivationRequest>;

/**
 * POST /activations/jwt answers the token alone, as a JSON string (`"eyJ..."`): the session id is
 * its `sub`, the lease its `exp`, the grace end its `grace_exp`.
 */
export const ZActivationTokenResponse = z.string();

const ZActivationEnvelope = z.object({
  sessionId: z.string().uuid(),
  token: z.string(),
  leaseExpiresAt: z.string(),
  graceExpiresAt: z.string(),
  nextCheckInDueAt: z.string().nullable(),
});

export const ZLicensedProduct = z.object({
  id: z.string().uuid(),
  productCode: z.string(),
  productVersion: z.string(),
  name: z.string(),
  expirationDate: z.string().nullable(),
  /** Public custom properties only: name → value. */
  properties: z.record(z.string(), z.string()),
});

export const ZLicensedFeature = z.object({
  featureCode: z.string(),
  name: z.string(),
  description: z.string(),
  productId: z.string().uuid().nullable(),
  value: z.string().nullable(),
  isEnabled: z.boolean(),
});

/**
 * POST /activations/license: the token and what an application shows about its license. The
 * wrapper: `{ sessionId, token, leaseExpiresAt, graceExpiresAt, nextCheckInDueAt, license }`.
 */
export const ZActivationLicenseResponse = ZActivationEnvelope.extend({
  license: z.object({
    entitlementId: z.string().uuid(),
    name: z.string(),
    description: z.string(),
    licenseTermsUrl: z.string().nullable(),
    state: z.enum(["Active", "Trial", "Grace"]),
    isFloatingLicense: z.boolean(),
    numberOfSeats: z.number().int(),
    expirationDateTime: z.string().nullable(),
    products: z.array(ZLicensedProduct),
    features: z.array(ZLicensedFeature),
  }),
});

/** Session calls: bodies are empty (the token names the session). */
export const ZSessionParams = z.object({ sessionId: z.string().uuid() });

/**
 * Renew, check-in and release answer the session's lease state. Renew adds a fresh token.
 * `nextCheckInDueAt` is when the client should check in next (null when the license needs no
 * heartbeat); `seatHeldUntil` is when the seat frees itself without contact.
 */
export const ZSessionLeaseResponse = z.object({
  sessionId: z.string().uuid(),
  entitlementId: z.string().uuid(),
  state: z.enum(["Active", "Released"]),
  leaseExpiresAt: z.string(),
  graceExpiresAt: z.string(),
  seatHeldUntil: z.string(),
  nextCheckInDueAt: z.string().nullable(),
  lastContactAt: z.string().nullable(),
});
export const ZRenewResponse = ZSessionLeaseResponse.extend({ token: z.string() });
export type TSessionLeaseResponse = z.infer<typeof ZSessionLeaseResponse>;
