import { route } from "@/server/http/route";
import { integratorDisableSubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { disableSubscription } from "@/server/domain/webhooks/subscriptions/disable-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/disable
export const POST = route(integratorDisableSubscriptionContract, ({ ctx, params }) =>
  disableSubscription(ctx, integratorAccess(ctx), params.id),
);
