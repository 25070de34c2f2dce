import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { deviceInclude, toDeviceResponse } from "./device-response.ts";
import { deviceSieve } from "./list-entitlement-devices.ts";

/** The fleet's filters: an entitlement's devices' own, plus which entitlement holds the device. */
export const fleetDeviceSieve: SieveWhitelist = {
  ...deviceSieve,
  entitlementId: { type: "uuid", sortable: false },
};

/**
 * Back office "Devices": every device of the tenant (newest first), searchable by name and
 * fingerprint hash prefix, filtered by entitlement, blocked and last seen.
 */
export async function listDevices(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: fleetDeviceSieve,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.device.findMany({ ...args, include: deviceInclude }),
      count: (args) => ctx.db.device.count(args),
    },
    (rows) => rows.map(toDeviceResponse),
  );
}
