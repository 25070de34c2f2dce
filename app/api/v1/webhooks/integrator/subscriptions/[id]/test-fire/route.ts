import { route } from "@/server/http/route";
import { integratorTestFireContract } from "@/server/http/contracts/webhooks/webhooks";
import { testFire } from "@/server/domain/webhooks/subscriptions/test-fire";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// POST /api/v1/webhooks/integrator/subscriptions/{id}/test-fire
export const POST = route(integratorTestFireContract, ({ ctx, params, body }) =>
  testFire(ctx, integratorAccess(ctx), params.id, body.eventType),
);
