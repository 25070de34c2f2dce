import type { DomainContext } from "../../context.ts";
import { applySubscriptionTrigger } from "./apply-subscription-trigger.ts";
import type { SubscriptionAccess } from "./subscription-access.ts";

/** Turns deliveries on: Disabled → Active (docs/api.md; 409 while PendingVerification). */
export function enableSubscription(ctx: DomainContext, access: SubscriptionAccess, id: string) {
  return applySubscriptionTrigger(ctx, access, id, "enable");
}
