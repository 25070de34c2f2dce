import { route } from "@/server/http/route";
import { integratorTestFirePreviewContract } from "@/server/http/contracts/webhooks/webhooks";
import { previewTestFire } from "@/server/domain/webhooks/subscriptions/test-fire";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/integrator/subscriptions/{id}/test-fire/preview
export const GET = route(integratorTestFirePreviewContract, ({ ctx, params, query }) =>
  previewTestFire(ctx, integratorAccess(ctx), params.id, query.eventType),
);
