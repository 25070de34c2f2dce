import { route } from "@/server/http/route";
import {
  adminCreateSubscriptionContract,
  adminListSubscriptionsContract,
} from "@/server/http/contracts/webhooks/webhooks";
import { listSubscriptions } from "@/server/domain/webhooks/subscriptions/list-subscriptions";
import { createSubscription } from "@/server/domain/webhooks/subscriptions/create-subscription";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/subscriptions
export const GET = route(adminListSubscriptionsContract, ({ ctx, query }) =>
  listSubscriptions(ctx, adminAccess, query),
);

// POST /api/v1/webhooks/subscriptions
export const POST = route(adminCreateSubscriptionContract, ({ ctx, body }) =>
  createSubscription(ctx, adminAccess, body),
);
