import type { DomainContext } from "../../context.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";

export async function getSubscription(ctx: DomainContext, access: SubscriptionAccess, id: string) {
  return toSubscriptionResponse(await findSubscription(ctx, access, id));
}
