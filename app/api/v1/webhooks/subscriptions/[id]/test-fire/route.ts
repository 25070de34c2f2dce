import { route } from "@/server/http/route";
import { adminTestFireContract } from "@/server/http/contracts/webhooks/webhooks";
import { testFire } from "@/server/domain/webhooks/subscriptions/test-fire";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/subscriptions/{id}/test-fire
export const POST = route(adminTestFireContract, ({ ctx, params, body }) =>
  testFire(ctx, adminAccess, params.id, body.eventType),
);
