import { route } from "@/server/http/route";
import { integratorEnableSubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { enableSubscription } from "@/server/domain/webhooks/subscriptions/enable-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/enable
export const POST = route(integratorEnableSubscriptionContract, ({ ctx, params }) =>
  enableSubscription(ctx, integratorAccess(ctx), params.id),
);
