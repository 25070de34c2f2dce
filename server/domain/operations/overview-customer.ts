import type { DomainContext } from "../context.ts";
import { notFound } from "../../core/errors.ts";

/** The header of Customer 360: a customer user or organization in one shape (organizations are never blocked). */
export async function readCustomer(ctx: DomainContext, kind: "User" | "Organization", id: string) {
  if (kind === "User") {
    const u = await ctx.db.customerUser.findFirst({ where: { id } });
    if (!u) throw notFound("Customer user");
    return {
      kind,
      id: u.id,
      displayName: [u.firstName, u.lastName].filter(Boolean).join(" ") || u.email || u.id,
      email: u.email,
      externalReference: u.externalReference,
      origin: u.origin,
      isBlocked: u.isBlocked,
      createdAt: u.createdAt.toISOString(),
    };
  }
  const o = await ctx.db.customerOrganization.findFirst({ where: { id } });
  if (!o) throw notFound("Customer organization");
  return {
    kind,
    id: o.id,
    displayName: o.name,
    email: o.emailDomain,
    externalReference: o.externalReference,
    origin: o.origin,
    isBlocked: false,
    createdAt: o.createdAt.toISOString(),
  };
}
