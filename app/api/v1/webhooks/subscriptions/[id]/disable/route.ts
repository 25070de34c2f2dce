import { route } from "@/server/http/route";
import { adminDisableSubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { disableSubscription } from "@/server/domain/webhooks/subscriptions/disable-subscription";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/disable
export const POST = route(adminDisableSubscriptionContract, ({ ctx, params }) =>
  disableSubscription(ctx, adminAccess, params.id),
);
