import { route } from "@/server/http/route";
import { createSuiteContract, listSuitesContract } from "@/server/http/contracts/pricing/suites";
import { listSuites } from "@/server/domain/pricing/suites/list-suites";
import { createSuite } from "@/server/domain/pricing/suites/create-suite";

// GET /api/v1/provision/admin/suites
export const GET = route(listSuitesContract, ({ ctx, query }) => listSuites(ctx, query));

// POST /api/v1/provision/admin/suites
export const POST = route(createSuiteContract, ({ ctx, body }) => createSuite(ctx, body));
