import { z } from "zod";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { iso } from "../../../core/iso-date.ts";
import { revocationReasons, toRevocationReason } from "../devices/device.schemas.ts";

/**
 * docs/api.md "Session (activation) admin read model": one activated seat (device or process) on an
 * entitlement. Field names other than revocationReason are ours (docs/decisions.md).
 */
export const ZSessionResponse = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid(),
  entitlementName: z
    .string()
    .nullable()
    .describe("The entitlement's name; null when the entitlement no longer exists."),
  deviceId: z.string().uuid(),
  deviceFingerprintHash: z
    .string()
    .describe("SHA-256 of the device fingerprint; the fingerprint itself is never kept."),
  deviceName: z.string().nullable().describe("The device display name the application sent at activation."),
  processId: z.string().nullable().describe("Process identifier for concurrent (per-process) licensing."),
  activationCodeId: z.string().uuid().nullable(),
  productIds: z.array(z.string().uuid()),
  activatedAt: z.string(),
  leaseExpiresAt: z.string(),
  graceExpiresAt: z
    .string()
    .describe(
      "leaseExpiresAt + the entitlement's gracePeriod: the client may keep running offline until then.",
    ),
  seatHeldUntil: z
    .string()
    .describe(
      "Until when the session holds its seat (the lease, shortened by inactivity for inactivity-based licenses).",
    ),
  validFrom: z
    .string()
    .nullable()
    .describe("Start of the validity window: the entitlement's notValidBeforeDateTime."),
  validUntil: z
    .string()
    .nullable()
    .describe(
      "End of the session's validity window (the entitlement's expiry, grace included); null = open-ended.",
    ),
  isTrial: z.boolean().describe("The entitlement is a trial (isEntitlementTrial)."),
  lastContactAt: z
    .string()
    .nullable()
    .describe(
      "When the application last contacted the service for this session (activate, renew, check-in, release).",
    ),
  revokedAt: z.string().nullable().describe("Null while not revoked."),
  revocationReason: z
    .enum(revocationReasons)
    .describe("`None` while not revoked; otherwise why the session ended."),
  isAnonymousTry: z
    .boolean()
    .describe("Derived, never stored: the entitlement is an anonymous try license held by a device."),
  activationKind: z.string().describe("`Online` or `Offline` (issued as an offline response artifact)."),
  activatedByUserId: z
    .string()
    .uuid()
    .nullable()
    .describe("The platform user who activated with useInteractiveUser; null otherwise."),
  isActive: z
    .boolean()
    .describe("Computed at read time: not revoked, lease not expired, inside the validity window."),
});
export type TSessionResponse = z.infer<typeof ZSessionResponse>;

/** What the signed-in user sees of their own sessions (no other user's ids, no device hashes). */
export const ZConsumerSessionResponse = ZSessionResponse.pick({
  id: true,
  entitlementId: true,
  entitlementName: true,
  deviceName: true,
  processId: true,
  productIds: true,
  activatedAt: true,
  leaseExpiresAt: true,
  graceExpiresAt: true,
  validUntil: true,
  isTrial: true,
  lastContactAt: true,
  activationKind: true,
  isActive: true,
});
export type TConsumerSessionResponse = z.infer<typeof ZConsumerSessionResponse>;

export const ZSessionIdParams = z.object({ sessionId: z.string().uuid() });
export const ZSessionsByUserParams = z.object({
  userId: z.string().uuid().describe("A customer user id (/admin/customers/users/{id})."),
});

/** Prisma `include` for the session row's device (its fingerprint hash). */
export const sessionInclude = { device: { select: { fingerprintHash: true } } } as const;

type SessionRow = {
  id: string;
  entitlementId: string;
  deviceId: string;
  activationCodeId: string | null;
  processId: string | null;
  deviceName: string | null;
  productIds: string[];
  activatedAt: Date;
  leaseExpiresAt: Date;
  graceExpiresAt: Date;
  seatHeldUntil: Date;
  validUntil: Date | null;
  lastContactAt: Date | null;
  revokedAt: Date | null;
  revocationReason: string;
  activationKind: string;
  activatedByUserId: string | null;
  device: { fingerprintHash: string };
};

export type SessionEntitlement = {
  id: string;
  name: string;
  notValidBeforeDateTime: Date | null;
  isEntitlementTrial: boolean;
  isAnonymousTry: boolean;
};

/** docs/api.md: active when not revoked, the lease has not expired and it is inside its validity window. */
export function isSessionActive(
  row: Pick<SessionRow, "revokedAt" | "leaseExpiresAt" | "validUntil">,
  validFrom: Date | null,
  at: Date,
): boolean {
  return (
    !row.revokedAt &&
    row.leaseExpiresAt > at &&
    (!row.validUntil || row.validUntil > at) &&
    (!validFrom || validFrom <= at)
  );
}

export function toSessionResponse(
  row: SessionRow,
  entitlement: SessionEntitlement | undefined,
  at: Date,
): TSessionResponse {
  const validFrom = entitlement?.notValidBeforeDateTime ?? null;
  return {
    id: row.id,
    entitlementId: row.entitlementId,
    entitlementName: entitlement?.name ?? null,
    deviceId: row.deviceId,
    deviceFingerprintHash: row.device.fingerprintHash,
    deviceName: row.deviceName,
    processId: row.processId,
    activationCodeId: row.activationCodeId,
    productIds: row.productIds,
    activatedAt: row.activatedAt.toISOString(),
    leaseExpiresAt: row.leaseExpiresAt.toISOString(),
    graceExpiresAt: row.graceExpiresAt.toISOString(),
    seatHeldUntil: row.seatHeldUntil.toISOString(),
    validFrom: iso(validFrom),
    validUntil: iso(row.validUntil),
    isTrial: entitlement?.isEntitlementTrial ?? false,
    lastContactAt: iso(row.lastContactAt),
    revokedAt: iso(row.revokedAt),
    revocationReason: toRevocationReason(row.revocationReason),
    isAnonymousTry: entitlement?.isAnonymousTry ?? false,
    activationKind: row.activationKind,
    activatedByUserId: row.activatedByUserId,
    isActive: isSessionActive(row, validFrom, at),
  };
}

/** Maps session rows, reading their entitlements in one query (sessions have no Prisma relation to them). */
export async function toSessionResponses(
  db: TenantDbOrTx,
  rows: SessionRow[],
  at: Date,
): Promise<TSessionResponse[]> {
  const ids = [...new Set(rows.map((r) => r.entitlementId))];
  const entitlements = ids.length
    ? await db.entitlement.findMany({
        where: { id: { in: ids } },
        select: {
          id: true,
          name: true,
          notValidBeforeDateTime: true,
          isEntitlementTrial: true,
          isAnonymousTry: true,
        },
      })
    : [];
  const byId = new Map(entitlements.map((e) => [e.id, e]));
  return rows.map((row) => toSessionResponse(row, byId.get(row.entitlementId), at));
}

/**
 * The Prisma where for "active" ({@link isSessionActive}) at `at`. The validity window's start lives
 * on the entitlement, which sessions have no relation to, so the caller passes the ids of
 * entitlements not yet valid at `at` ({@link notYetValidEntitlementIds}).
 */
export function activeSessionWhere(at: Date, notYetValid: string[]) {
  return {
    revokedAt: null,
    leaseExpiresAt: { gt: at },
    OR: [{ validUntil: null }, { validUntil: { gt: at } }],
    ...(notYetValid.length ? { entitlementId: { notIn: notYetValid } } : {}),
  };
}

export async function notYetValidEntitlementIds(db: TenantDbOrTx, at: Date): Promise<string[]> {
  const rows = await db.entitlement.findMany({
    where: { notValidBeforeDateTime: { gt: at } },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
