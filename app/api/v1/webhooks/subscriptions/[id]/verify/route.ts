import { route } from "@/server/http/route";
import { adminVerifySubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { verifySubscription } from "@/server/domain/webhooks/subscriptions/verify-subscription";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/verify
export const POST = route(adminVerifySubscriptionContract, ({ ctx, params }) =>
  verifySubscription(ctx, adminAccess, params.id),
);
