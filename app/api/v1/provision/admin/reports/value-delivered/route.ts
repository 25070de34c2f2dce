import { route } from "@/server/http/route";
import { valueDeliveredReportContract } from "@/server/http/contracts/reports/reports";
import { valueDeliveredReport } from "@/server/domain/reports/value-delivered";

// GET /api/v1/provision/admin/reports/value-delivered
export const GET = route(valueDeliveredReportContract, ({ ctx, query }) => valueDeliveredReport(ctx, query));
