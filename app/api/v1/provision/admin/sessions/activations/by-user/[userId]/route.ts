import { route } from "@/server/http/route";
import { listSessionsByUserContract } from "@/server/http/contracts/licensing/sessions";
import { listSessionsByUser } from "@/server/domain/licensing/sessions/list-sessions-by-user";

// GET /api/v1/provision/admin/sessions/activations/by-user/{userId}
export const GET = route(listSessionsByUserContract, ({ ctx, params, query }) =>
  listSessionsByUser(ctx, params.userId, query),
);
