import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { plansOfEntitlement } from "../../entitlements/plans/consumer-plans.ts";
import { findConsumerSession } from "./consumer-session-scope.ts";

/** GET /consumer/me/sessions/{sessionId}/plans: the plans behind the entitlement of one of the user's sessions. */
export async function listConsumerSessionPlans(ctx: DomainContext, sessionId: string) {
  const session = await findConsumerSession(ctx, sessionId);
  const entitlement = await ctx.db.entitlement.findFirst({
    where: { id: session.entitlementId },
    select: { id: true, planSetId: true, planName: true },
  });
  if (!entitlement) throw notFound("Entitlement");
  return plansOfEntitlement(ctx.db, entitlement);
}
