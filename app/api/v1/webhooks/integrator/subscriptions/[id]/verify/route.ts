import { route } from "@/server/http/route";
import { integratorVerifySubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { verifySubscription } from "@/server/domain/webhooks/subscriptions/verify-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/verify
export const POST = route(integratorVerifySubscriptionContract, ({ ctx, params }) =>
  verifySubscription(ctx, integratorAccess(ctx), params.id),
);
