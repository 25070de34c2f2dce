import { route } from "@/server/http/route";
import { listEventSchemasContract } from "@/server/http/contracts/webhooks/webhooks";
import { listEventSchemas } from "@/server/domain/webhooks/events/list-event-schemas";

// GET /api/v1/webhooks/schemas (anonymous)
export const GET = route(listEventSchemasContract, async ({ query }) => listEventSchemas(query));
