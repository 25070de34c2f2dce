import { route } from "@/server/http/route";
import { deleteSuiteContract, getSuiteContract, updateSuiteContract } from "@/server/http/contracts/suites";
import { getSuite } from "@/server/domain/catalog/get-suite";
import { updateSuite } from "@/server/domain/catalog/update-suite";
import { deleteSuite } from "@/server/domain/catalog/delete-suite";

// GET /api/v1/provision/admin/suites/{suiteId}
export const GET = route(getSuiteContract, ({ ctx, params }) => getSuite(ctx, params.suiteId));

// PATCH /api/v1/provision/admin/suites/{suiteId}
export const PATCH = route(updateSuiteContract, ({ ctx, params, body }) => updateSuite(ctx, params.suiteId, body));

// DELETE /api/v1/provision/admin/suites/{suiteId}
export const DELETE = route(deleteSuiteContract, ({ ctx, params }) => deleteSuite(ctx, params.suiteId));
