import { route } from "@/server/http/route";
import { listConsumerSessionsContract } from "@/server/http/contracts/licensing/sessions";
import { listConsumerSessions } from "@/server/domain/licensing/sessions/list-consumer-sessions";

// GET /api/v1/provision/consumer/me/sessions
export const GET = route(listConsumerSessionsContract, ({ ctx, query }) => listConsumerSessions(ctx, query));
