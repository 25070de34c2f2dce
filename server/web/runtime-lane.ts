import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { logger } from "../log.ts";
import { matchRuntimeRoute, type RuntimeMatch } from "./runtime-routes.ts";
import { internalProblemAnswer } from "../http/problem.ts";
import type { Answer, RouteRequest } from "../http/route-request.ts";

/**
 * The runtime lane (docs/architecture.md section 11): a runtime request is answered by its route module's
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

/** Header lookups on the socket's request (Node already lower-cases the names). */
class SocketHeaders implements Pick<Headers, "get" | "has"> {
  constructor(private readonly raw: IncomingMessage["headers"]) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
}

/**
 * The request as the REST wrapper reads it (server/http/route-request.ts), straight from the
 * socket's request: no `Request`, `Headers` or abort signal is built for a call that never needs
 * them. The body is the socket's stream, made a web stream only when the handler reads it (with
 * its byte cap, server/http/body.ts, so an oversized upload is answered 413 while it arrives).
 */
function laneRequest(req: IncomingMessage): RouteRequest {
  const method = req.method ?? "GET";
  const withBody = method !== "GET" && method !== "HEAD" && hasBody(req);
  let body: ReadableStream<Uint8Array> | null | undefined;
  return {
    method,
    url: `${originOf(req)}${req.url ?? "/"}`,
    headers: new SocketHeaders(req.headers),
    get body() {
      body ??= withBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null;
      return body;
    },
  };
}

/** A WHATWG `Request` for a handler that is not the REST wrapper's (it takes nothing less). */
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const lane = laneRequest(req);
  return new Request(lane.url, {
    method: lane.method,
    headers,
    ...(lane.body ? { body: lane.body, duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes a route's answer in one go, with its Content-Length (no chunked framing). */
function writeAnswer(answer: Answer, res: ServerResponse): void {
  const empty = answer.status === 204 || answer.status === 304 || answer.body === null;
  const headers: Record<string, string> = empty
    ? answer.headers
    : { ...answer.headers, "content-length": String(Buffer.byteLength(answer.body!)) };
  res.writeHead(answer.status, headers).end(empty ? undefined : answer.body);
}

/** Writes a handler's `Response` (a route without `answer`, or a streamed one): the body is read whole. */
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
  const context = { params: Promise.resolve(match.params) };
  try {
    const out = match.handler.answer
      ? await match.handler.answer(laneRequest(req), context)
      : await match.handler(toRequest(req), context);
    if (out instanceof Response) await writeResponse(out, res);
    else writeAnswer(out, res);
  } catch (error) {
    // The route wrapper answers every error itself; reaching here is a bug in the lane.
    logger.error({ err: error, route: match.path, method: req.method }, "runtime lane: unhandled error");
    if (!res.headersSent) writeAnswer(internalProblemAnswer(match.path, "-"), res);
    else res.destroy();
  }
}
