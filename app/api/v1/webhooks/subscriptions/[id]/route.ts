import { route } from "@/server/http/route";
import {
  adminDeleteSubscriptionContract,
  adminGetSubscriptionContract,
  adminUpdateSubscriptionContract,
} from "@/server/http/contracts/webhooks/webhooks";
import { getSubscription } from "@/server/domain/webhooks/subscriptions/get-subscription";
import { updateSubscription } from "@/server/domain/webhooks/subscriptions/update-subscription";
import { deleteSubscription } from "@/server/domain/webhooks/subscriptions/delete-subscription";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/subscriptions/{id}
export const GET = route(adminGetSubscriptionContract, ({ ctx, params }) =>
  getSubscription(ctx, adminAccess, params.id),
);

// PATCH /api/v1/webhooks/subscriptions/{id}
export const PATCH = route(adminUpdateSubscriptionContract, ({ ctx, params, body }) =>
  updateSubscription(ctx, adminAccess, params.id, body),
);

// DELETE /api/v1/webhooks/subscriptions/{id}
export const DELETE = route(adminDeleteSubscriptionContract, ({ ctx, params }) =>
  deleteSubscription(ctx, adminAccess, params.id),
);
