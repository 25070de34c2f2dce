import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import {
  checkReceiverUrlShape,
  hostOf,
  resolvePublicAddresses,
  type Resolver,
} from "../subscriptions/receiver-url.ts";

export type SendResult = {
  /** True for a 2xx answer. */
  ok: boolean;
  status: number | null;
  headers: http.IncomingHttpHeaders;
  /** The start of the response body (up to `maxBodyBytes`). */
  body: string;
  error: string | null;
  durationMs: number;
};

export type SendOptions = {
  timeoutMs: number;
  allowPrivate: boolean;
  maxBodyBytes: number;
  resolve?: Resolver;
};

// Keep-alive pools: a pooled socket was connected to an address that passed the check.
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * The connection's DNS lookup: resolves the host, refuses it unless every address is public
 * (docs/architecture.md section 7, DNS rebinding), and connects only to an address that passed.
 */
function guardedLookup(options: SendOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolvePublicAddresses(hostname, { allowPrivate: options.allowPrivate, resolve: options.resolve }).then(
      (addresses) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => !wanted || a.family === wanted);
        if (usable.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} has no usable address`), { code: "ENOTFOUND" }),
            "",
            4,
          );
        if (lookupOptions.all)
          return (
            callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void
          )(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(Object.assign(new Error(error.message), { code: "EWEBHOOKADDRESS" }), "", 4),
    );
  };
}

const failure = (error: string, started: number): SendResult => ({
  ok: false,
  status: null,
  headers: {},
  body: "",
  error,
  durationMs: Math.round(performance.now() - started),
});

/**
 * POSTs one webhook request: no redirects followed (a 3xx is a failure), one deadline for the
 * whole exchange, and at most `maxBodyBytes` of the answer read.
 */
export async function sendWebhookRequest(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  let url: URL;
  try {
    url = checkReceiverUrlShape(rawUrl, options.allowPrivate);
    // IP literals never reach the lookup function.
    if (isIP(hostOf(url))) await resolvePublicAddresses(hostOf(url), { allowPrivate: options.allowPrivate });
  } catch (error) {
    return failure(`Refused: ${(error as Error).message}`, started);
  }
  const payload = Buffer.from(body, "utf8");
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {
      method: "POST",
      agent: agents[url.protocol as "http:" | "https:"],
      lookup: guardedLookup(options),
      headers: { ...headers, "content-length": String(payload.length) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish(failure(`Timed out after ${options.timeoutMs / 1000} s`, started));
    }, options.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) =>
      finish(
        failure(
          error.code === "EWEBHOOKADDRESS"
            ? `Refused: ${error.message}`
            : `${error.code ?? "Error"}: ${error.message}`,
          started,
        ),
      ),
    );
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = () => {
        const status = res.statusCode ?? 0;
        finish({
          ok: status >= 200 && status < 300,
          status,
          headers: res.headers,
          body: Buffer.concat(chunks).subarray(0, options.maxBodyBytes).toString("utf8"),
          error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
          durationMs: Math.round(performance.now() - started),
        });
      };
      res.on("data", (chunk: Buffer) => {
        if (length < options.maxBodyBytes) chunks.push(chunk);
        length += chunk.length;
        if (length >= options.maxBodyBytes) {
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    req.end(payload);
  });
}
