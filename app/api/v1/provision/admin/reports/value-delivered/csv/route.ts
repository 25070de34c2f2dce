import { route } from "@/server/http/route";
import { csvResponse } from "@/server/http/csv";
import { valueDeliveredCsvContract } from "@/server/http/contracts/reports/reports";
import { valueDeliveredExport } from "@/server/domain/reports/value-delivered";

// GET /api/v1/provision/admin/reports/value-delivered/csv
export const GET = route(valueDeliveredCsvContract, ({ ctx, query }) =>
  csvResponse(ctx, valueDeliveredExport.prepare(query)),
);
