import type { ServerResponse } from "node:http";
import { PROBLEM_CONTENT_TYPE, toProblem } from "../http/problem.ts";
import { validationError } from "../core/errors.ts";

/**
 * Whether a request target is in origin-form (RFC 9112 section 3.2.1: a path starting with one
 * "/"). An absolute-form target (`GET http://evil.example/admin`), an authority or asterisk form,
 * or a path starting with "//" (which URL parsers read as another host) would let a client make
 * Next.js build redirects and links to a host of its choosing; the web process refuses them
 * before any routing.
 */
export function isOriginForm(target: string | undefined): boolean {
  return target !== undefined && target.startsWith("/") && !target.startsWith("//");
}

/** The 400 problem a target that is not origin-form gets; the connection closes after it. */
export function refuseTarget(res: ServerResponse): void {
  const body = JSON.stringify(
    toProblem(
      validationError("The request target must be a path (origin-form), not a URL or an authority."),
      "/",
    ),
  );
  res
    .writeHead(400, {
      "content-type": PROBLEM_CONTENT_TYPE,
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    })
    .end(body);
}
