import { route } from "@/server/http/route";
import { listSessionsByUserContract } from "@/server/http/contracts/sessions";
import { listSessionsByUser } from "@/server/domain/licensing/list-sessions-by-user";

// GET /api/v1/provision/admin/sessions/activations/by-user/{userId}
export const GET = route(listSessionsByUserContract, ({ ctx, params, query }) => listSessionsByUser(ctx, params.userId, query));
