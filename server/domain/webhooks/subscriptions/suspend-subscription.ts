import type { DomainContext } from "../../context.ts";
import { applySubscriptionTrigger } from "./apply-subscription-trigger.ts";
import { adminAccess } from "./subscription-access.ts";

/** Tenant admin only: stops deliveries whatever the state; resume returns to it. */
export function suspendSubscription(ctx: DomainContext, id: string) {
  return applySubscriptionTrigger(ctx, adminAccess, id, "suspend");
}
