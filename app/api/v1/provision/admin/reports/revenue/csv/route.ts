import { route } from "@/server/http/route";
import { csvResponse } from "@/server/http/csv";
import { revenueCsvContract } from "@/server/http/contracts/reports/reports";
import { revenueExport } from "@/server/domain/reports/revenue";

// GET /api/v1/provision/admin/reports/revenue/csv
export const GET = route(revenueCsvContract, ({ ctx, query }) =>
  csvResponse(ctx, revenueExport.prepare(query)),
);
