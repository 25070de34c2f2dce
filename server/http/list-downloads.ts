import { db } from "../db/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { Session } from "next-auth";
import { AppError } from "../core/errors.ts";
import { logger } from "../log.ts";
import { prepareListExport } from "../domain/operations/list-exports.ts";
import { csvResponse } from "./csv.ts";
import { internalProblem, problemResponse } from "./problem.ts";

/**
 * The back office's list exports (GET /admin/export/{list}?filter=…&sortOrder=…): a list page's
 * rows as filtered, as a streamed CSV, for the signed-in staff user's tenant. Like the report
 * downloads, a download cannot go through tRPC; anyone else gets 401/403, an unknown list 404, a
 * filter the list does not allow 400.
 */
export async function staffListDownload(
  req: Request,
  list: string,
  currentSession: () => Promise<Session | null>,
): Promise<Response> {
  const url = new URL(req.url);
  try {
    const session = await currentSession();
    if (!session) throw new AppError("auth.unauthenticated", "Sign in to the back office first.");
    if (session.kind !== "staff")
      throw new AppError("auth.forbidden", "The back office is for vendor staff.");
    const prepared = prepareListExport(list, Object.fromEntries(url.searchParams));
    return await csvResponse(
      {
        tenantId: session.tenantId,
        actor: { kind: "user", id: session.userId },
        db: tenantDb(db(), session.tenantId),
      },
      prepared,
    );
  } catch (error) {
    if (error instanceof AppError) return problemResponse(error, url.pathname);
    logger.error({ err: error, route: "/admin/export" }, "unhandled error");
    return internalProblem(url.pathname);
  }
}
