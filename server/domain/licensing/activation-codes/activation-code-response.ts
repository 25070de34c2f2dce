import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TActivationCodeResponse } from "./activation-code.schemas.ts";

type ActivationCodeRow = {
  id: string;
  entitlementId: string;
  code: string;
  status: string;
  deviceLimit: number | null;
  sequenceNumber: number | null;
  revokedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * Distinct devices with an unrevoked session per code: what counts against a code's device limit.
 * A device reset or block revokes the sessions, so the count drops to 0 (docs/api.md "States").
 */
export async function devicesInUseByCode(db: TenantDbOrTx, codeIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (codeIds.length === 0) return out;
  const pairs = await db.licenseSession.groupBy({
    by: ["activationCodeId", "deviceId"],
    where: { activationCodeId: { in: codeIds }, revokedAt: null },
  });
  for (const pair of pairs)
    if (pair.activationCodeId) out.set(pair.activationCodeId, (out.get(pair.activationCodeId) ?? 0) + 1);
  return out;
}

export function toActivationCodeResponse(
  row: ActivationCodeRow,
  devicesInUse: number,
): TActivationCodeResponse {
  return {
    id: row.id,
    entitlementId: row.entitlementId,
    code: row.code,
    status: row.status === "Revoked" ? "Revoked" : "Active",
    deviceLimit: row.deviceLimit,
    devicesInUse,
    sequenceNumber: row.sequenceNumber,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function toActivationCodeResponses(
  db: TenantDbOrTx,
  rows: ActivationCodeRow[],
): Promise<TActivationCodeResponse[]> {
  const inUse = await devicesInUseByCode(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toActivationCodeResponse(row, inUse.get(row.id) ?? 0));
}
