import { router, staffProcedure } from "../../init.ts";
import { readDashboard, ZDashboard } from "../../../domain/operations/dashboard.ts";
import { globalSearch, ZSearchQuery, ZSearchResult } from "../../../domain/operations/search.ts";
import { readCustomerOverview } from "../../../domain/operations/customer-overview.ts";
import {
  ZCustomerOverview,
  ZCustomerOverviewQuery,
} from "../../../domain/operations/customer-overview.schemas.ts";

/** The back office's operator views: dashboard, global search, customer 360. */
export const operationsRouter = router({
  dashboard: staffProcedure("reports")
    .output(ZDashboard)
    .query(({ ctx }) => readDashboard(ctx.domain)),
  search: staffProcedure("customers")
    .input(ZSearchQuery)
    .output(ZSearchResult)
    .query(({ ctx, input }) => globalSearch(ctx.domain, input)),
  customer: staffProcedure("customers")
    .input(ZCustomerOverviewQuery)
    .output(ZCustomerOverview)
    .query(({ ctx, input }) => readCustomerOverview(ctx.domain, input)),
});
