// The load's HTTP client: keep-alive connections to HAProxy, every attempt recorded with the time
// it was sent, its status and the web host that answered (HAProxy's x-cluster-server header).
// A failed attempt (no answer, or 5xx) is retried with the same request, so the same
// Idempotency-Key or idempotencyKey, after Retry-After or 200 ms: what a shipped client does.
import { Agent, request } from "node:http";

export type Attempt = {
  at: number;
  status: number;
  /** "network: …" when no answer came. */
  error?: string;
  codeName?: string;
  retryAfter?: string;
  server?: string;
  /** HAProxy's own answer (no web host up), not a web process's. */
  fromLb?: boolean;
};
export type Call = { kind: string; attempts: Attempt[]; status: number; body: any };
export type Answer = { status: number; body: any; headers: Record<string, string | string[] | undefined> };

type Options = { token?: string; body?: unknown; form?: URLSearchParams; headers?: Record<string, string> };

export const failed = (a: Attempt) => a.status === 0 || a.status >= 500;

export class Client {
  readonly calls: Call[] = [];
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  constructor(private readonly base: string) {}

  once(method: string, path: string, options: Options = {}): Promise<Answer> {
    const url = new URL(path, this.base);
    const payload = options.form
      ? options.form.toString()
      : options.body === undefined
        ? undefined
        : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (payload)
      headers["content-type"] = options.form ? "application/x-www-form-urlencoded" : "application/json";
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: this.agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      });
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** One logical request: retried while it fails (at most `maxAttempts`), every attempt recorded. */
  async call(
    kind: string,
    method: string,
    path: string,
    options: Options = {},
    maxAttempts = 40,
  ): Promise<Call> {
    const call: Call = { kind, attempts: [], status: 0, body: undefined };
    this.calls.push(call);
    for (let i = 0; i < maxAttempts; i++) {
      const at = Date.now();
      let attempt: Attempt;
      let answer: Answer | undefined;
      try {
        answer = await this.once(method, path, options);
        attempt = {
          at,
          status: answer.status,
          codeName: answer.body?.codeName,
          retryAfter: answer.headers["retry-after"] as string | undefined,
          server: answer.headers["x-cluster-server"] as string | undefined,
          fromLb: answer.headers["x-cluster-lb"] === "no-server",
        };
      } catch (error) {
        attempt = { at, status: 0, error: `network: ${(error as Error).message}` };
      }
      call.attempts.push(attempt);
      if (!failed(attempt)) {
        call.status = answer!.status;
        call.body = answer!.body;
        return call;
      }
      const wait = attempt.retryAfter ? Math.min(Number(attempt.retryAfter) * 1000, 2_000) : 200;
      await new Promise((r) => setTimeout(r, wait));
    }
    return call;
  }

  close(): void {
    this.agent.destroy();
  }
}
