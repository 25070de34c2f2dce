import type { DomainContext } from "../context.ts";
import { notFound } from "../../http/errors.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
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
  if (!(await ctx.db.entitlement.findFirst({ where: { id: entitlementId }, select: { id: true } }))) throw notFound("Entitlement");
  const where = { AND: [sieveWhere(query.filter, deviceSieve), { entitlementId }] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, deviceSieve) ?? [{ createdAt: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.device.findMany({ where, orderBy, include: deviceInclude, ...pageWindow(query) }),
    ctx.db.device.count({ where }),
  ]);
  return pageEnvelope(rows.map(toDeviceResponse), query, totalCount);
}
