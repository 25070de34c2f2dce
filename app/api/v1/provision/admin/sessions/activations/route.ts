import { route } from "@/server/http/route";
import { listSessionsContract } from "@/server/http/contracts/licensing/sessions";
import { listSessions } from "@/server/domain/licensing/sessions/list-sessions";

// GET /api/v1/provision/admin/sessions/activations
export const GET = route(listSessionsContract, ({ ctx, query }) => listSessions(ctx, query));
