import { NextResponse, type NextRequest } from "next/server";
import { servedOverHttps } from "@/server/config";
import { newNonce, pageSecurityHeaders } from "@/server/http/page-security-headers";

/**
 * UI pages only (the matcher leaves the API, the token endpoint and static files alone): a fresh
 * CSP nonce per page view, on the request (Next.js reads it from there to stamp its scripts) and
 * on the response with the other page headers.
 */
export function proxy(request: NextRequest) {
  const headers = pageSecurityHeaders(newNonce(), {
    development: process.env.NODE_ENV === "development",
    https: servedOverHttps(),
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", headers["content-security-policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|auth/connect/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
