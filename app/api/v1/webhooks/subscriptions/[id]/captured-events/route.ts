import { route } from "@/server/http/route";
import { adminListCapturedEventsContract } from "@/server/http/contracts/webhooks/webhooks";
import { listCapturedEvents } from "@/server/domain/webhooks/delivery/list-captured-events";

// GET /api/v1/webhooks/subscriptions/{id}/captured-events
export const GET = route(adminListCapturedEventsContract, ({ ctx, params, query }) =>
  listCapturedEvents(ctx, params.id, query),
);
