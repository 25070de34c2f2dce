import { staffReportDownload } from "@/server/http/report-downloads";
import { currentSession } from "@/server/auth/session";

type Context = { params: Promise<{ report: string }> };

// GET /admin/reports/export/{report}: a report's CSV for the signed-in staff user (back office)
export async function GET(req: Request, { params }: Context) {
  return staffReportDownload(req, (await params).report, currentSession);
}
