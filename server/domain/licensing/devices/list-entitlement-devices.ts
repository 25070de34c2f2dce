import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { deviceInclude, toDeviceResponse } from "./device-response.ts";

export const deviceSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  deviceFingerprintHash: { type: "string", column: "fingerprintHash" },
  deviceName: { type: "string", nullable: true },
  isPreRegistered: { type: "boolean" },
  isBlocked: { type: "boolean" },
  blockedAt: { type: "date", nullable: true },
  lastSeenAt: { type: "date", nullable: true },
  createdAt: { type: "date" },
};

/** GET /admin/entitlements/{id}/devices: the entitlement's devices with their unrevoked sessions. */
export async function listEntitlementDevices(ctx: DomainContext, entitlementId: string, query: TListQuery) {
  if (!(await ctx.db.entitlement.findFirst({ where: { id: entitlementId }, select: { id: true } })))
    throw notFound("Entitlement");
  return listPage(
    query,
    {
      sieve: deviceSieve,
      where: { entitlementId },
      defaultOrder: [{ createdAt: "asc" }],
      findMany: (args) => ctx.db.device.findMany({ ...args, include: deviceInclude }),
      count: (args) => ctx.db.device.count(args),
    },
    (rows) => rows.map(toDeviceResponse),
  );
}
