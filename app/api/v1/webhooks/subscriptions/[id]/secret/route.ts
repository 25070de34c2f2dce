import { route } from "@/server/http/route";
import { adminRotateSecretContract } from "@/server/http/contracts/webhooks/webhooks";
import { rotateSubscriptionSecret } from "@/server/domain/webhooks/subscriptions/rotate-subscription-secret";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/secret
export const POST = route(adminRotateSecretContract, ({ ctx, params, body }) =>
  rotateSubscriptionSecret(ctx, adminAccess, params.id, body),
);
