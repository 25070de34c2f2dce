import { z } from "zod";
import type { DomainContext } from "../context.ts";

export const ZAuditEntityRef = z.object({
  entityKind: z.string().min(1).max(100),
  entityId: z.string().min(1).max(100),
});
export const ZAuditEntityNamesRequest = z.object({ refs: z.array(ZAuditEntityRef).max(100) });
export const ZAuditEntityName = ZAuditEntityRef.extend({ name: z.string() });
export type TAuditEntityName = z.infer<typeof ZAuditEntityName>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Lookup = (ctx: DomainContext, ids: string[]) => Promise<{ id: string; name: string }[]>;
const byName = (rows: { id: string; name: string }[]) => rows;

/** The kinds the audit trail names (the records staff open), each read by primary key. */
const lookups: Record<string, Lookup> = {
  entitlement: async (ctx, ids) =>
    byName(
      await ctx.db.entitlement.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
    ),
  offer: async (ctx, ids) =>
    byName(await ctx.db.offer.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })),
  product: async (ctx, ids) =>
    byName(await ctx.db.product.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })),
  planSet: async (ctx, ids) =>
    byName(
      await ctx.db.usagePlanSet.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
    ),
  suite: async (ctx, ids) =>
    byName(await ctx.db.suite.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })),
  addOn: async (ctx, ids) =>
    byName(await ctx.db.addOn.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })),
  monitoredAsset: async (ctx, ids) =>
    byName(
      await ctx.db.monitoredAsset.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
    ),
  tag: async (ctx, ids) =>
    byName(await ctx.db.tag.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })),
  customerOrganization: async (ctx, ids) =>
    byName(
      await ctx.db.customerOrganization.findMany({
        where: { id: { in: ids } },
        select: { id: true, name: true },
      }),
    ),
  customerUser: async (ctx, ids) =>
    (
      await ctx.db.customerUser.findMany({
        where: { id: { in: ids } },
        select: { id: true, email: true, firstName: true, lastName: true },
      })
    ).map((u) => ({
      id: u.id,
      name: [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email || "unnamed user",
    })),
};

/**
 * The names of the records audit rows refer to, for the audit trail page: one query per kind, by
 * primary key, in this tenant only. A record since deleted, another tenant's, or of a kind staff
 * do not open by name is left out (the page shows the kind instead).
 */
export async function auditEntityNames(
  ctx: DomainContext,
  refs: z.infer<typeof ZAuditEntityRef>[],
): Promise<TAuditEntityName[]> {
  const idsByKind = new Map<string, Set<string>>();
  for (const ref of refs) {
    if (!lookups[ref.entityKind] || !UUID.test(ref.entityId)) continue;
    if (!idsByKind.has(ref.entityKind)) idsByKind.set(ref.entityKind, new Set());
    idsByKind.get(ref.entityKind)!.add(ref.entityId.toLowerCase());
  }
  const found = await Promise.all(
    [...idsByKind].map(async ([kind, ids]) =>
      (await lookups[kind](ctx, [...ids])).map((row) => ({
        entityKind: kind,
        entityId: row.id,
        name: row.name,
      })),
    ),
  );
  return found.flat();
}
