import { route } from "@/server/http/route";
import { adminDisableSubscriptionContract } from "@/server/http/contracts/webhooks";
import { disableSubscription } from "@/server/domain/webhooks/disable-subscription";
import { adminAccess } from "@/server/domain/webhooks/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/disable
export const POST = route(adminDisableSubscriptionContract, ({ ctx, params }) => disableSubscription(ctx, adminAccess, params.id));
