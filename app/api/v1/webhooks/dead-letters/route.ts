import { route } from "@/server/http/route";
import { adminListDeadLettersContract } from "@/server/http/contracts/webhooks/webhooks";
import { listDeadLetters } from "@/server/domain/webhooks/delivery/list-dead-letters";

// GET /api/v1/webhooks/dead-letters
export const GET = route(adminListDeadLettersContract, ({ ctx, query }) => listDeadLetters(ctx, query));
