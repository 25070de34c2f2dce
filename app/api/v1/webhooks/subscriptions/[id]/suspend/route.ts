import { route } from "@/server/http/route";
import { adminSuspendSubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { suspendSubscription } from "@/server/domain/webhooks/subscriptions/suspend-subscription";

// POST /api/v1/webhooks/subscriptions/{id}/suspend
export const POST = route(adminSuspendSubscriptionContract, ({ ctx, params }) =>
  suspendSubscription(ctx, params.id),
);
