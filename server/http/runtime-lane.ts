import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { logger } from "../log.ts";
import { matchRuntimeRoute, type RuntimeMatch } from "./runtime-routes.ts";
import { internalProblem } from "./problem.ts";

/**
 * The runtime lane (DESIGN.md section 11): a runtime request is answered by its route module's
 * handler, called with a WHATWG `Request` built straight from the socket's request, without
 * Next.js's routing, rendering pipeline or per-request wrappers. The handler is the same function
 * Next.js calls under `next dev`, so both serve one API.
 */
export function runtimeRouteFor(req: IncomingMessage): RuntimeMatch | null {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return matchRuntimeRoute(req.method ?? "GET", q === -1 ? url : url.slice(0, q));
}

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");

/** A Host header that does not make a URL (a client's choice) falls back to a neutral origin. */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host;
  if (host && /^[\w.-]+(:\d+)?$|^\[[\da-f:.]+\](:\d+)?$/i.test(host)) return `http://${host}`;
  return "http://localhost";
}

/**
 * The request as route handlers see it under Next.js. The body is the socket's stream, not a
 * buffer: the handler reads it with its byte cap (server/http/body.ts) and answers 413 while an
 * oversized upload is still arriving.
 */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const withBody = method !== "GET" && method !== "HEAD" && hasBody(req);
  return new Request(`${originOf(req)}${req.url ?? "/"}`, {
    method,
    headers,
    signal,
    ...(withBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * Writes the handler's answer. Runtime answers are JSON the route wrapper already holds as one
 * string, so the body is taken whole and sent with its Content-Length (no chunked framing).
 */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (body && response.status !== 204 && response.status !== 304)
    headers["content-length"] = String(body.length);
  res
    .writeHead(response.status, headers)
    .end(response.status === 204 || response.status === 304 ? undefined : body);
}

/** Answers one runtime request; `match` is what runtimeRouteFor found for it. */
export async function serveRuntime(
  req: IncomingMessage,
  res: ServerResponse,
  match: RuntimeMatch,
): Promise<void> {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort();
  });
  try {
    const response = await match.handler(toRequest(req, aborted.signal), {
      params: Promise.resolve(match.params),
    });
    await writeResponse(response, res);
  } catch (error) {
    // The route wrapper answers every error itself; reaching here is a bug in the lane.
    logger.error({ err: error, route: match.path, method: req.method }, "runtime lane: unhandled error");
    if (!res.headersSent)
      await writeResponse(internalProblem(match.path, "-"), res).catch(() => res.destroy());
    else res.destroy();
  }
}
