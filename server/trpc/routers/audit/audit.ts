import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { ZAuditEventResponse } from "../../../domain/audit/audit-event.schemas.ts";
import { listAuditEvents } from "../../../domain/audit/list-audit-events.ts";

export const auditRouter = router({
  list: staffProcedure("audit")
    .input(ZListQuery)
    .output(ZPage(ZAuditEventResponse))
    .query(({ ctx, input }) => listAuditEvents(ctx.domain, input)),
});
