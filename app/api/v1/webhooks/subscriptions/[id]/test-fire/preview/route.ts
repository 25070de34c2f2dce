import { route } from "@/server/http/route";
import { adminTestFirePreviewContract } from "@/server/http/contracts/webhooks/webhooks";
import { previewTestFire } from "@/server/domain/webhooks/subscriptions/test-fire";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/subscriptions/{id}/test-fire/preview
export const GET = route(adminTestFirePreviewContract, ({ ctx, params, query }) =>
  previewTestFire(ctx, adminAccess, params.id, query.eventType),
);
