import { route } from "@/server/http/route";
import { adminEnableSubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { enableSubscription } from "@/server/domain/webhooks/subscriptions/enable-subscription";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/enable
export const POST = route(adminEnableSubscriptionContract, ({ ctx, params }) =>
  enableSubscription(ctx, adminAccess, params.id),
);
