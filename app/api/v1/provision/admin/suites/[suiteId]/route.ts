import { route } from "@/server/http/route";
import {
  deleteSuiteContract,
  getSuiteContract,
  updateSuiteContract,
} from "@/server/http/contracts/pricing/suites";
import { getSuite } from "@/server/domain/pricing/suites/get-suite";
import { updateSuite } from "@/server/domain/pricing/suites/update-suite";
import { deleteSuite } from "@/server/domain/pricing/suites/delete-suite";

// GET /api/v1/provision/admin/suites/{suiteId}
export const GET = route(getSuiteContract, ({ ctx, params }) => getSuite(ctx, params.suiteId));

// PATCH /api/v1/provision/admin/suites/{suiteId}
export const PATCH = route(updateSuiteContract, ({ ctx, params, body }) =>
  updateSuite(ctx, params.suiteId, body),
);

// DELETE /api/v1/provision/admin/suites/{suiteId}
export const DELETE = route(deleteSuiteContract, ({ ctx, params }) => deleteSuite(ctx, params.suiteId));
