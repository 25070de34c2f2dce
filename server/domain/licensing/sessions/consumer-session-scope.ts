import type { DomainContext } from "../../context.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { notFound } from "../../../core/errors.ts";
import { customersOfLogin } from "../../entitlements/consumer/consumer-entitlements.ts";
import { sessionsOfCustomerUsers } from "./list-sessions-by-user.ts";

/**
 * The sessions that are the signed-in user's: on entitlements they hold directly or through their
 * organizations, or activated by them with useInteractiveUser. A user who acts for no customer
 * (every linked record blocked or unapproved) has none.
 */
export async function consumerSessionScope(ctx: DomainContext): Promise<Prisma.LicenseSessionWhereInput> {
  const customers = await customersOfLogin(ctx.db, ctx.actor.id);
  if (customers.length === 0) return { id: { in: [] } };
  return sessionsOfCustomerUsers(ctx.db, customers, [ctx.actor.id]);
}

/** One of the signed-in user's sessions (ended ones included); another user's session is not found. */
export async function findConsumerSession(ctx: DomainContext, sessionId: string) {
  const session = await ctx.db.licenseSession.findFirst({
    where: { AND: [{ id: sessionId }, await consumerSessionScope(ctx)] },
    select: { id: true, entitlementId: true },
  });
  if (!session) throw notFound("Session");
  return session;
}
