import { route } from "@/server/http/route";
import { revenueReportContract } from "@/server/http/contracts/reports/reports";
import { revenueReport } from "@/server/domain/reports/revenue";

// GET /api/v1/provision/admin/reports/revenue
export const GET = route(revenueReportContract, ({ ctx, query }) => revenueReport(ctx, query));
