import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/options";
import { BODY_LIMITS, cappedBodyOrProblem } from "@/server/http/body";
import { testClockOf } from "@/server/http/test-clock";
import { runAtClock } from "@/server/clock";

// GET, POST /api/auth/*: next-auth (credentials sign-in for staff and consumers, JWT sessions).
const handler = NextAuth(authOptions);

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/**
 * Sign-in and sign-out forms are small: the body is read under the anonymous cap before next-auth
 * sees it. The test clock moves the failed-sign-in window in tests, as on the token endpoint.
 */
async function POST(req: NextRequest, context: RouteContext) {
  const body = await cappedBodyOrProblem(req, BODY_LIMITS.anonymous, "form");
  if ("problem" in body) return body.problem;
  const forward = () =>
    handler(new NextRequest(req.url, { method: "POST", headers: req.headers, body: body.text }), context);
  const at = testClockOf(req);
  return at ? runAtClock(at, forward) : forward();
}

export { handler as GET, POST };
