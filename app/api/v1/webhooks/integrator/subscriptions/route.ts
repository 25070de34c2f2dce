import { route } from "@/server/http/route";
import { integratorCreateSubscriptionContract, integratorListSubscriptionsContract } from "@/server/http/contracts/webhooks";
import { listSubscriptions } from "@/server/domain/webhooks/list-subscriptions";
import { createSubscription } from "@/server/domain/webhooks/create-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscription-access";

// GET /api/v1/webhooks/integrator/subscriptions
export const GET = route(integratorListSubscriptionsContract, ({ ctx, query }) => listSubscriptions(ctx, integratorAccess(ctx), query));

// POST /api/v1/webhooks/integrator/subscriptions
export const POST = route(integratorCreateSubscriptionContract, ({ ctx, body }) => createSubscription(ctx, integratorAccess(ctx), body));
