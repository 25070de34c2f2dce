import { route } from "@/server/http/route";
import { csvResponse } from "@/server/http/csv";
import { activationsCsvContract } from "@/server/http/contracts/reports/reports";
import { activationsExport } from "@/server/domain/reports/activations";

// GET /api/v1/provision/admin/reports/activations/csv
export const GET = route(activationsCsvContract, ({ ctx, query }) =>
  csvResponse(ctx, activationsExport.prepare(query)),
);
