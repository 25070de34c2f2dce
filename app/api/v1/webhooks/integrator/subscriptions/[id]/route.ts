import { route } from "@/server/http/route";
import {
  integratorDeleteSubscriptionContract,
  integratorGetSubscriptionContract,
  integratorUpdateSubscriptionContract,
} from "@/server/http/contracts/webhooks/webhooks";
import { getSubscription } from "@/server/domain/webhooks/subscriptions/get-subscription";
import { updateSubscription } from "@/server/domain/webhooks/subscriptions/update-subscription";
import { deleteSubscription } from "@/server/domain/webhooks/subscriptions/delete-subscription";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/integrator/subscriptions/{id}
export const GET = route(integratorGetSubscriptionContract, ({ ctx, params }) =>
  getSubscription(ctx, integratorAccess(ctx), params.id),
);

// PATCH /api/v1/webhooks/integrator/subscriptions/{id}
export const PATCH = route(integratorUpdateSubscriptionContract, ({ ctx, params, body }) =>
  updateSubscription(ctx, integratorAccess(ctx), params.id, body),
);

// DELETE /api/v1/webhooks/integrator/subscriptions/{id}
export const DELETE = route(integratorDeleteSubscriptionContract, ({ ctx, params }) =>
  deleteSubscription(ctx, integratorAccess(ctx), params.id),
);
