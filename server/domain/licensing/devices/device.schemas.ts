import { z } from "zod";
import { ZListQuery } from "../../../core/pagination.ts";

/** Why a session ended: released by the client, reset or blocked by the vendor, or swept after its grace period. */
export const revocationReasons = [
  "None",
  "Released",
  "DeviceReset",
  "DeviceBlocked",
  "LeaseExpired",
] as const;
export type RevocationReason = (typeof revocationReasons)[number];

/** A stored reason as the API names it (an unknown stored value reads as `None`). */
export const toRevocationReason = (stored: string): RevocationReason =>
  (revocationReasons as readonly string[]).includes(stored) ? (stored as RevocationReason) : "None";

/** docs/api.md "Device reset result". */
export const ZDeviceResetResult = z.object({
  entitlementId: z.string(),
  devicesReset: z.number().int(),
  transferCount: z.number().int(),
  error: z.string().nullable(),
});
export type TDeviceResetResult = z.infer<typeof ZDeviceResetResult>;

export const ZBulkDeviceResetRequest = z.object({
  entitlementIds: z.array(z.string().min(1).max(100)).min(1).max(100),
});
export const ZBulkDeviceResetResponse = z.array(ZDeviceResetResult);

/** Exactly one of `fingerprint` (the raw fingerprint; only its hash is kept) or `deviceId`. */
export const ZDeviceBlockRequest = z
  .object({
    fingerprint: z.string().min(1).max(4096).optional(),
    deviceId: z.string().uuid().optional(),
  })
  .refine((v) => (v.fingerprint === undefined) !== (v.deviceId === undefined), {
    message: "Give exactly one of fingerprint or deviceId.",
    path: ["fingerprint"],
  });
export type TDeviceBlockRequest = z.infer<typeof ZDeviceBlockRequest>;

export const ZDeviceSessionResponse = z.object({
  id: z.string().uuid(),
  activationCodeId: z.string().uuid().nullable(),
  processId: z.string().nullable(),
  deviceName: z.string().nullable(),
  activatedAt: z.string(),
  leaseExpiresAt: z.string(),
  revokedAt: z.string().nullable(),
  revocationReason: z.enum(revocationReasons),
});

export const ZDeviceResponse = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid(),
  deviceFingerprintHash: z.string(),
  deviceName: z.string().nullable(),
  isPreRegistered: z.boolean(),
  isBlocked: z.boolean(),
  blockedAt: z.string().nullable(),
  unblockedAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** Unrevoked sessions (activations) of the device. */
  activeSessionCount: z.number().int(),
  sessions: z.array(ZDeviceSessionResponse),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TDeviceResponse = z.infer<typeof ZDeviceResponse>;

/** Pre-registers a device by its fingerprint (only the hash is kept). */
export const ZDevicePreRegisterRequest = z.object({
  fingerprint: z.string().min(1).max(4096),
  deviceName: z.string().trim().min(1).max(200).nullable().optional(),
});
export type TDevicePreRegisterRequest = z.infer<typeof ZDevicePreRegisterRequest>;

export const ZEntitlementDeviceParams = z.object({ id: z.string().uuid(), deviceId: z.string().uuid() });

/** The fleet Devices page's list query: the list's own, plus whose license and which product. */
export const ZFleetDeviceListQuery = ZListQuery.extend({
  customerId: z.string().uuid().optional(),
  productId: z.string().uuid().optional(),
});
