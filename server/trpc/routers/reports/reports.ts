import { router, staffProcedure } from "../../init.ts";
import { revenueReport, ZRevenueReport, ZRevenueReportQuery } from "../../../domain/reports/revenue.ts";
import {
  seatUtilizationReport,
  ZSeatUtilizationReport,
  ZSeatUtilizationReportQuery,
} from "../../../domain/reports/seat-utilization.ts";
import {
  activationsReport,
  ZActivationsReport,
  ZActivationsReportQuery,
} from "../../../domain/reports/activations.ts";
import {
  valueDeliveredReport,
  ZValueDeliveredReport,
  ZValueDeliveredReportQuery,
} from "../../../domain/reports/value-delivered.ts";
import { fleetUsage, ZFleetUsage, ZFleetUsageQuery } from "../../../domain/reports/fleet-usage.ts";

/** Back office: the reports of GET /admin/reports/... (CSV downloads go through /admin/reports/export/{report}). */
export const reportsRouter = router({
  /** The Usage page: one metric across every customer (read by every staff role, as meters are). */
  fleetUsage: staffProcedure("metering")
    .input(ZFleetUsageQuery)
    .output(ZFleetUsage)
    .query(({ ctx, input }) => fleetUsage(ctx.domain, input)),
  revenue: staffProcedure("reports")
    .input(ZRevenueReportQuery)
    .output(ZRevenueReport)
    .query(({ ctx, input }) => revenueReport(ctx.domain, input)),
  seatUtilization: staffProcedure("reports")
    .input(ZSeatUtilizationReportQuery)
    .output(ZSeatUtilizationReport)
    .query(({ ctx, input }) => seatUtilizationReport(ctx.domain, input)),
  activations: staffProcedure("reports")
    .input(ZActivationsReportQuery)
    .output(ZActivationsReport)
    .query(({ ctx, input }) => activationsReport(ctx.domain, input)),
  valueDelivered: staffProcedure("reports")
    .input(ZValueDeliveredReportQuery)
    .output(ZValueDeliveredReport)
    .query(({ ctx, input }) => valueDeliveredReport(ctx.domain, input)),
});
