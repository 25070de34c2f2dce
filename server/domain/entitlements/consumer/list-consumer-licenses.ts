import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { now } from "../../../clock.ts";
import { iso } from "../../../core/iso-date.ts";
import { consumerEntitlementIds } from "./consumer-entitlements.ts";
import { ZClaimBasedActivation } from "../entitlement/policies.schemas.ts";

/** A license as its holder sees it in the portal. */
export const ZConsumerLicense = z.object({
  entitlementId: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  status: z.string(),
  validFrom: z.string().nullable(),
  expirationDateTime: z.string().nullable(),
  isTrial: z.boolean(),
  planName: z.string().nullable(),
  products: z.array(z.object({ id: z.string().uuid(), name: z.string() })),
  numberOfSeats: z.number().int(),
  /** Sessions holding a seat now, whoever activated them. */
  seatsInUse: z.number().int(),
});
export type TConsumerLicense = z.infer<typeof ZConsumerLicense>;

/** The portal's "Your licenses": entitlements assigned to the signed-in user or their organizations. */
export async function listConsumerLicenses(ctx: DomainContext): Promise<TConsumerLicense[]> {
  const ids = await consumerEntitlementIds(ctx);
  if (ids.length === 0) return [];
  const at = now();
  const [rows, held] = await Promise.all([
    ctx.db.entitlement.findMany({ where: { id: { in: ids } }, orderBy: [{ name: "asc" }, { id: "asc" }] }),
    ctx.db.licenseSession.groupBy({
      by: ["entitlementId"],
      where: { entitlementId: { in: ids }, revokedAt: null, seatHeldUntil: { gt: at } },
      _count: { _all: true },
    }),
  ]);
  const productIds = [...new Set(rows.flatMap((r) => r.productIds))];
  const products = productIds.length
    ? await ctx.db.product.findMany({ where: { id: { in: productIds } }, select: { id: true, name: true } })
    : [];
  const productName = new Map(products.map((p) => [p.id, p.name]));
  const seats = new Map(held.map((h) => [h.entitlementId, h._count._all]));
  return rows.map((e) => ({
    entitlementId: e.id,
    name: e.name,
    description: e.description,
    status: e.status,
    validFrom: iso(e.notValidBeforeDateTime),
    expirationDateTime: iso(e.expirationDateTime),
    isTrial: e.isEntitlementTrial,
    planName: e.planName,
    products: e.productIds.flatMap((id) => (productName.has(id) ? [{ id, name: productName.get(id)! }] : [])),
    numberOfSeats: ZClaimBasedActivation.parse(e.claimBasedActivation ?? {}).numberOfSeats,
    seatsInUse: seats.get(e.id) ?? 0,
  }));
}
