import { route } from "@/server/http/route";
import { seatUtilizationReportContract } from "@/server/http/contracts/reports/reports";
import { seatUtilizationReport } from "@/server/domain/reports/seat-utilization";

// GET /api/v1/provision/admin/reports/seat-utilization
export const GET = route(seatUtilizationReportContract, ({ ctx, query }) =>
  seatUtilizationReport(ctx, query),
);
