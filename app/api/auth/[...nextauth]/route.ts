import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { authOptions } from "@/server/auth/options";
import { BODY_LIMITS, cappedBodyOrProblem } from "@/server/http/body";

// GET, POST /api/auth/*: next-auth (credentials sign-in for staff and consumers, JWT sessions).
const handler = NextAuth(authOptions);

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/** Sign-in and sign-out forms are small: the body is read under the anonymous cap before next-auth sees it. */
async function POST(req: NextRequest, context: RouteContext) {
  const body = await cappedBodyOrProblem(req, BODY_LIMITS.anonymous, "form");
  if ("problem" in body) return body.problem;
  return handler(
    new NextRequest(req.url, { method: "POST", headers: req.headers, body: body.text }),
    context,
  );
}

export { handler as GET, POST };
