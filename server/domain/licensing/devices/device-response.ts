import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { toRevocationReason, type TDeviceResponse } from "./device.schemas.ts";

type DeviceRow = {
  id: string;
  entitlementId: string;
  fingerprintHash: string;
  deviceName: string | null;
  isPreRegistered: boolean;
  isBlocked: boolean;
  blockedAt: Date | null;
  unblockedAt: Date | null;
  lastSeenAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  sessions: {
    id: string;
    activationCodeId: string | null;
    processId: string | null;
    deviceName: string | null;
    activatedAt: Date;
    leaseExpiresAt: Date;
    revokedAt: Date | null;
    revocationReason: string;
  }[];
};

/** Prisma `include` for a device's unrevoked sessions. */
export const deviceInclude = {
  sessions: { where: { revokedAt: null }, orderBy: { activatedAt: "asc" } },
} as const;

export function toDeviceResponse(row: DeviceRow): TDeviceResponse {
  return {
    id: row.id,
    entitlementId: row.entitlementId,
    deviceFingerprintHash: row.fingerprintHash,
    deviceName: row.deviceName,
    isPreRegistered: row.isPreRegistered,
    isBlocked: row.isBlocked,
    blockedAt: row.blockedAt?.toISOString() ?? null,
    unblockedAt: row.unblockedAt?.toISOString() ?? null,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    activeSessionCount: row.sessions.length,
    sessions: row.sessions.map((s) => ({
      id: s.id,
      activationCodeId: s.activationCodeId,
      processId: s.processId,
      deviceName: s.deviceName,
      activatedAt: s.activatedAt.toISOString(),
      leaseExpiresAt: s.leaseExpiresAt.toISOString(),
      revokedAt: s.revokedAt?.toISOString() ?? null,
      revocationReason: toRevocationReason(s.revocationReason),
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function loadDevice(db: TenantDbOrTx, id: string): Promise<TDeviceResponse> {
  return toDeviceResponse(await db.device.findFirstOrThrow({ where: { id }, include: deviceInclude }));
}
