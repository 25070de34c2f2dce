import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";

/**
 * Which subscriptions a caller may see. The tenant-admin surface (REST `provision.webhook.*` and
 * the back office) sees every subscription of the tenant; the integrator surface sees only those
 * its own credential created (docs/api.md: another integration's subscription is 404, never 403).
 */
export type SubscriptionAccess = { surface: "admin" } | { surface: "integrator"; ownerClientId: string };

export const adminAccess: SubscriptionAccess = { surface: "admin" };

export function integratorAccess(ctx: DomainContext): SubscriptionAccess {
  if (ctx.actor.kind !== "client") throw new Error("The integrator surface is for OAuth clients only.");
  return { surface: "integrator", ownerClientId: ctx.actor.id };
}

/** Prisma where fragment restricting subscriptions to the caller's. */
export function subscriptionWhere(access: SubscriptionAccess) {
  return access.surface === "integrator"
    ? { ownerClientId: access.ownerClientId, createdVia: "integrator" }
    : {};
}

/** The subscription or 404 (unknown, another tenant's, or another integration's). */
export async function findSubscription(ctx: DomainContext, access: SubscriptionAccess, id: string) {
  const row = await ctx.db.webhookSubscription.findFirst({ where: { id, ...subscriptionWhere(access) } });
  if (!row) throw notFound("Subscription");
  return row;
}

/** The key the replay ceiling counts under: the integration (OAuth client) or back-office user. */
export function principalKey(ctx: DomainContext): string {
  return `${ctx.actor.kind}:${ctx.actor.id}`;
}
