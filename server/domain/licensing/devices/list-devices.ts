import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { COUNT_BEYOND_PAGE, listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { resolveCustomer } from "../../customers/customer-lookup.ts";
import { deviceInclude, toDeviceResponse } from "./device-response.ts";
import { deviceSieve } from "./list-entitlement-devices.ts";

/** The fleet's filters: an entitlement's devices' own, plus which entitlement holds the device. */
export const fleetDeviceSieve: SieveWhitelist = {
  ...deviceSieve,
  entitlementId: { type: "uuid", sortable: false },
};

/** The fleet's filters that are not the device's own columns: whose license, of which product. */
export type FleetDeviceScope = { customerId?: string; productId?: string };

/**
 * The devices' where for a customer and a product: devices of the entitlements assigned to that
 * customer and granting that product. An unknown (or another tenant's) customer or product is
 * 404, as an unknown entitlement is for an entitlement's devices.
 */
async function scopeWhere(ctx: DomainContext, scope: FleetDeviceScope) {
  if (!scope.customerId && !scope.productId) return undefined;
  if (scope.customerId) await resolveCustomer(ctx.db, scope.customerId);
  if (
    scope.productId &&
    !(await ctx.db.product.findFirst({ where: { id: scope.productId }, select: { id: true } }))
  )
    throw notFound("Product");
  // Device.entitlementId is a plain column (no relation to filter through): the matching
  // entitlements first, found by Entitlement (tenantId, customerId) or, for a product, by the GIN
  // index on productIds (`has` is array containment, `@>`, which that index serves).
  const entitlements = await ctx.db.entitlement.findMany({
    where: {
      ...(scope.customerId ? { customerId: scope.customerId } : {}),
      ...(scope.productId ? { productIds: { has: scope.productId } } : {}),
    },
    select: { id: true },
  });
  return { entitlementId: { in: entitlements.map((e) => e.id) } };
}

/**
 * Back office "Devices": every device of the tenant (newest first), searchable by name and
 * fingerprint hash prefix, filtered by entitlement, customer, product, blocked and last seen.
 */
export async function listDevices(ctx: DomainContext, query: TListQuery & FleetDeviceScope) {
  const where = await scopeWhere(ctx, query);
  return listPage(
    query,
    {
      sieve: fleetDeviceSieve,
      where,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.device.findMany({ ...args, include: deviceInclude }),
      count: (args) => ctx.db.device.count(args),
      countBeyondPage: COUNT_BEYOND_PAGE,
    },
    (rows) => rows.map(toDeviceResponse),
  );
}
