import { route } from "@/server/http/route";
import { listAuditEventsContract } from "@/server/http/contracts/audit/audit-events";
import { listAuditEvents } from "@/server/domain/audit/list-audit-events";

// GET /api/v1/provision/admin/audit-events
export const GET = route(listAuditEventsContract, ({ ctx, query }) => listAuditEvents(ctx, query));
