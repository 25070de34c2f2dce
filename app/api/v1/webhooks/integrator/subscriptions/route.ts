import { route } from "@/server/http/route";
import {
  integratorCreateSubscriptionContract,
  integratorListSubscriptionsContract,
} from "@/server/http/contracts/webhooks/webhooks";
import { listSubscriptions } from "@/server/domain/webhooks/subscriptions/list-subscriptions";
import { createSubscription } from "@/server/domain/webhooks/subscriptions/create-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/integrator/subscriptions
export const GET = route(integratorListSubscriptionsContract, ({ ctx, query }) =>
  listSubscriptions(ctx, integratorAccess(ctx), query),
);

// POST /api/v1/webhooks/integrator/subscriptions
export const POST = route(integratorCreateSubscriptionContract, ({ ctx, body }) =>
  createSubscription(ctx, integratorAccess(ctx), body),
);
