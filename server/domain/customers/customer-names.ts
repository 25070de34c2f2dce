import type { DomainContext } from "../context.ts";

/** Customers' display names by id: an organization's name, a user's full name, else the user's email. */
export async function customerNames(ctx: DomainContext, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const [organizations, users] = await Promise.all([
    ctx.db.customerOrganization.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }),
    ctx.db.customerUser.findMany({
      where: { id: { in: ids } },
      select: { id: true, firstName: true, lastName: true, email: true },
    }),
  ]);
  const names = new Map(organizations.map((o) => [o.id, o.name] as [string, string]));
  for (const u of users)
    names.set(u.id, [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email || "");
  return names;
}
