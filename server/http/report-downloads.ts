import { db } from "../db/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { Session } from "next-auth";
import { AppError } from "../core/errors.ts";
import { logger } from "../log.ts";
import { reportExports, type ReportKey } from "../domain/reports/report-catalog.ts";
import { csvResponse } from "./csv.ts";
import { internalProblem, problemResponse } from "./problem.ts";

/**
 * The back office's CSV downloads (GET /admin/reports/export/{report}): the same export as the
 * REST CSV routes, for the signed-in staff user's tenant (the UI never calls REST, and a download
 * cannot go through tRPC). Anyone else gets 401/403 problems, an unknown report 404. The caller
 * passes the session reader (server/auth/session.ts).
 */
export async function staffReportDownload(
  req: Request,
  report: string,
  currentSession: () => Promise<Session | null>,
): Promise<Response> {
  const url = new URL(req.url);
  try {
    const session = await currentSession();
    if (!session) throw new AppError("auth.unauthenticated", "Sign in to the back office first.");
    if (session.kind !== "staff")
      throw new AppError("auth.forbidden", "The back office is for vendor staff.");
    const exporter = reportExports[report as ReportKey];
    if (!Object.hasOwn(reportExports, report)) throw new AppError("license.not_found", "No such report.");
    const prepared = exporter.prepare(Object.fromEntries(url.searchParams));
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
    logger.error({ err: error, route: "/admin/reports/export" }, "unhandled error");
    return internalProblem(url.pathname);
  }
}
