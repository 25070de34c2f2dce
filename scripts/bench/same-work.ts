// The same-work baseline's script (docs/architecture.md section 11): the runtime route handlers are called in
// this process, on a pool that records every statement they send (text, prepared-statement name,
// parameters), and the recording becomes a template that the bare baseline server replays
// (scripts/bench/baseline-server.ts). So the baseline runs the very statements our handler runs,
// whatever the domain code makes of them, and the ratio isolates what our stack adds.
//
// A template's parameters are constant, or fresh per request: a parameter is fresh when it differs
// between two recordings of the same call. In a fresh parameter, every UUID and 64-hex value (ids,
// fingerprint hashes) is replaced per request and every timestamp is moved by the time elapsed
// since the recording.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../server/db/generated/client.ts";
import { logger } from "../../server/log.ts";
import type { RouteHandler } from "../../server/web/runtime-routes.ts";

/** A parameter as JSON: a Date is `{ "$date": iso }`. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/**
 * `trip`: statements with the same number went out in one round trip (the handler sent them
 * pipelined, server/db/sql.ts); the baseline sends them the same way.
 */
export type TemplateStatement = { text: string; name?: string; trip: number; params: { value: Json; fresh: boolean }[] };
export type Template = { recordedAt: number; statements: TemplateStatement[] };
type Recorded = { text: string; name?: string; trip: number; values: Json[] };

function toJson(value: unknown): Json {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (Buffer.isBuffer(value)) return { $hex: value.toString("hex") };
  if (Array.isArray(value)) return value.map(toJson);
  if (value && typeof value === "object") return JSON.parse(JSON.stringify(value)) as Json;
  return value as Json;
}

export type Recorder = {
  /** Runs `call` and answers its response and the statements it sent. */
  record: (call: () => Promise<Response>) => Promise<{ response: Response; statements: Recorded[] }>;
  close: () => Promise<void>;
};

/**
 * Points this process's database handles (server/db/pool.ts, server/db/client.ts keep them on
 * globalThis) at a recording pool, so the route modules imported here run on it.
 */
export function installRecorder(databaseUrl: string): Recorder {
  let sink: Recorded[] | null = null;
  let trip = 0;
  // As the process pool (server/db/pool.ts): pipeline mode, so statements sent together stay together.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, pipeline: true } as pg.PoolConfig);
  pool.on("connect", (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    // A statement sent while another of its connection is still under way shares its round trip.
    let inFlight = 0;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      if (sink) {
        if (inFlight === 0) trip++;
        const first = args[0] as string | { text?: string; name?: string; values?: unknown[] };
        const text = typeof first === "string" ? first : (first?.text ?? "");
        const values =
          typeof first === "string" ? (Array.isArray(args[1]) ? args[1] : []) : (first?.values ?? []);
        sink.push({
          text,
          trip,
          ...(typeof first === "object" && first?.name ? { name: first.name } : {}),
          values: values.map(toJson),
        });
      }
      const sent = original(...args);
      if (sent instanceof Promise) {
        inFlight++;
        const done = () => {
          inFlight--;
        };
        sent.then(done, done);
      }
      return sent;
    };
  });
  const holder = globalThis as unknown as { __licensingPool?: pg.Pool; __licensingDb?: PrismaClient };
  holder.__licensingPool = pool;
  holder.__licensingDb = new PrismaClient({ adapter: new PrismaPg(pool) });
  logger.level = "warn";
  return {
    record: async (call) => {
      const statements: Recorded[] = [];
      sink = statements;
      try {
        const response = await call();
        await response.clone().text();
        return { response, statements };
      } finally {
        sink = null;
      }
    },
    close: async () => {
      await holder.__licensingDb?.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/** Calls a route handler in this process as the web entry would. */
export function callHandler(
  handler: RouteHandler,
  path: string,
  options: { body?: unknown; token?: string; params?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const req = new Request(`http://127.0.0.1${path}`, {
    method: "POST",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return Promise.resolve(handler(req, { params: Promise.resolve(options.params ?? {}) }));
}

/** Round trips of a recording: its statements sent together count once. */
export const roundTrips = (statements: Recorded[]): number => new Set(statements.map((s) => s.trip)).size;

/** A template from two recordings of the same call on different inputs; null when they took different paths. */
export function templateOf(a: Recorded[], b: Recorded[], recordedAt: number): Template | null {
  if (
    a.length !== b.length ||
    a.some((s, i) => s.text !== b[i].text || s.trip - a[0].trip !== b[i].trip - b[0].trip)
  )
    return null;
  return {
    recordedAt,
    statements: a.map((s, i) => ({
      text: s.text,
      trip: s.trip - a[0].trip,
      ...(s.name ? { name: s.name } : {}),
      params: s.values.map((value, j) => ({
        value,
        fresh: JSON.stringify(value) !== JSON.stringify(b[i].values[j]),
      })),
    })),
  };
}

/** The same template's fresh positions applied to another recording of the same path (another license, say). */
export function sameShape(template: Template, other: Recorded[], recordedAt: number): Template | null {
  if (other.length !== template.statements.length || other.some((s, i) => s.text !== template.statements[i].text))
    return null;
  return {
    recordedAt,
    statements: template.statements.map((t, i) => ({
      ...t,
      params: t.params.map((p, j) => ({ value: other[i].values[j], fresh: p.fresh })),
    })),
  };
}

export const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
export const HEX64_RE = /\b[0-9a-f]{64}\b/g;

/**
 * The ids and hashes a replay replaces: those in the template's fresh parameters that no constant
 * parameter holds (the tenant's or the license's id inside an event's JSON stays, the new
 * session's id is replaced).
 */
export function freshTokens(template: Template): string[] {
  const collect = (v: Json, into: Set<string>) => {
    if (typeof v === "string") {
      for (const m of v.match(UUID_RE) ?? []) into.add(m.toLowerCase());
      for (const m of v.match(HEX64_RE) ?? []) into.add(m);
    } else if (Array.isArray(v)) v.forEach((x) => collect(x, into));
    else if (v && typeof v === "object" && !("$date" in v)) Object.values(v).forEach((x) => collect(x, into));
  };
  const constant = new Set<string>();
  const fresh = new Set<string>();
  for (const s of template.statements) for (const p of s.params) collect(p.value, p.fresh ? fresh : constant);
  return [...fresh].filter((t) => !constant.has(t));
}
