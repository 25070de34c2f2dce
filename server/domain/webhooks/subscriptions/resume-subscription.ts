import type { DomainContext } from "../../context.ts";
import { applySubscriptionTrigger } from "./apply-subscription-trigger.ts";
import { adminAccess } from "./subscription-access.ts";

/** Tenant admin only: returns a Suspended subscription to the state it was suspended in. */
export function resumeSubscription(ctx: DomainContext, id: string) {
  return applySubscriptionTrigger(ctx, adminAccess, id, "resume");
}
