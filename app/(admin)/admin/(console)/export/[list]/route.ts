import { staffListDownload } from "@/server/http/list-downloads";
import { currentSession } from "@/server/auth/session";

type Context = { params: Promise<{ list: string }> };

// GET /admin/export/{list}: a list page's rows, as filtered, as CSV for the signed-in staff user
export async function GET(req: Request, { params }: Context) {
  return staffListDownload(req, (await params).list, currentSession);
}
