import { Agent, request, type IncomingMessage, type ServerResponse } from "node:http";
import { NEXT_IDLE_SOCKET_MS } from "./next-socket.ts";

/** Headers of one hop (RFC 9110 section 7.6.1): each side of the proxy keeps its own. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Hands a request the runtime lane does not answer to the Next.js process (server/web/next-process.ts)
 * on its local socket and streams its answer back: the request line, headers (the caller's Host
 * and the stamped peer address among them) and body as they came, the status, headers and body as
 * Next.js wrote them. At most `maxSockets` connections to Next.js, kept alive. Resolves when the
 * exchange is over.
 */
export function nextProxy(socketPath: string, maxSockets: number) {
  // A bounded pool: a burst of slow pages waits for a free socket instead of opening thousands.
  // `timeout` closes a free socket once idle that long (a socket in use is not cut by it).
  const agent = new Agent({
    keepAlive: true,
    maxSockets,
    maxFreeSockets: maxSockets,
    timeout: NEXT_IDLE_SOCKET_MS,
  });
  return (req: IncomingMessage, res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      const upstream = request(
        { socketPath, agent, method: req.method, path: req.url, headers },
        (answer) => {
          const raw: string[] = [];
          for (let i = 0; i < answer.rawHeaders.length; i += 2)
            if (!HOP_BY_HOP.has(answer.rawHeaders[i].toLowerCase()))
              raw.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, raw);
          answer.pipe(res);
          answer.once("error", () => res.destroy());
        },
      );
      upstream.once("error", () => {
        if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("Bad gateway\n");
        else res.destroy();
      });
      // The caller went away: so does the request to Next.js.
      res.once("close", () => {
        if (!res.writableFinished) upstream.destroy();
        resolve();
      });
      req.pipe(upstream);
    });
}
