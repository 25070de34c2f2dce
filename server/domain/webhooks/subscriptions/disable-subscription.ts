import type { DomainContext } from "../../context.ts";
import { applySubscriptionTrigger } from "./apply-subscription-trigger.ts";
import type { SubscriptionAccess } from "./subscription-access.ts";

/** Turns deliveries off: Active → Disabled (docs/api.md; 409 while PendingVerification). */
export function disableSubscription(ctx: DomainContext, access: SubscriptionAccess, id: string) {
  return applySubscriptionTrigger(ctx, access, id, "disable");
}
