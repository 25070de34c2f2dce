import { route } from "@/server/http/route";
import { integratorRotateSecretContract } from "@/server/http/contracts/webhooks/webhooks";
import { rotateSubscriptionSecret } from "@/server/domain/webhooks/subscriptions/rotate-subscription-secret";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/secret
export const POST = route(integratorRotateSecretContract, ({ ctx, params, body }) =>
  rotateSubscriptionSecret(ctx, integratorAccess(ctx), params.id, body),
);
