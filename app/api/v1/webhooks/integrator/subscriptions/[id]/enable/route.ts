import { route } from "@/server/http/route";
import { integratorEnableSubscriptionContract } from "@/server/http/contracts/webhooks";
import { enableSubscription } from "@/server/domain/webhooks/enable-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/enable
export const POST = route(integratorEnableSubscriptionContract, ({ ctx, params }) => enableSubscription(ctx, integratorAccess(ctx), params.id));
