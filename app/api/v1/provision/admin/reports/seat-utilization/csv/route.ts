import { route } from "@/server/http/route";
import { csvResponse } from "@/server/http/csv";
import { seatUtilizationCsvContract } from "@/server/http/contracts/reports/reports";
import { seatUtilizationExport } from "@/server/domain/reports/seat-utilization";

// GET /api/v1/provision/admin/reports/seat-utilization/csv
export const GET = route(seatUtilizationCsvContract, ({ ctx, query }) =>
  csvResponse(ctx, seatUtilizationExport.prepare(query)),
);
