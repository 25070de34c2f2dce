import { route } from "@/server/http/route";
import { activationsReportContract } from "@/server/http/contracts/reports/reports";
import { activationsReport } from "@/server/domain/reports/activations";

// GET /api/v1/provision/admin/reports/activations
export const GET = route(activationsReportContract, ({ ctx, query }) => activationsReport(ctx, query));
