import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { ZAuditEventResponse } from "../../../domain/audit/audit-event.schemas.ts";
import { listAuditEvents } from "../../../domain/audit/list-audit-events.ts";
import { z } from "zod";
import {
  ZAuditEntityName,
  ZAuditEntityNamesRequest,
  auditEntityNames,
} from "../../../domain/audit/audit-entity-names.ts";
import {
  ZEntityHistoryPage,
  ZEntityHistoryQuery,
  listEntityHistory,
} from "../../../domain/operations/entity-history.ts";

export const auditRouter = router({
  list: staffProcedure("audit")
    .input(ZListQuery)
    .output(ZPage(ZAuditEventResponse))
    .query(({ ctx, input }) => listAuditEvents(ctx.domain, input)),
  /** One record's History tab: its audit rows and its domain events, newest first, in plain words. */
  history: staffProcedure("audit")
    .input(ZEntityHistoryQuery)
    .output(ZEntityHistoryPage)
    .query(({ ctx, input }) => listEntityHistory(ctx.domain, input)),
  /** The names of the records a page of the audit trail refers to (deleted and foreign ones left out). */
  entityNames: staffProcedure("audit")
    .input(ZAuditEntityNamesRequest)
    .output(z.array(ZAuditEntityName))
    .query(({ ctx, input }) => auditEntityNames(ctx.domain, input.refs)),
});
