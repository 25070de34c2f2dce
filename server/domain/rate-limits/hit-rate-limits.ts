import { createHash } from "node:crypto";
import { processSql, type Statement } from "../../db/sql.ts";
import { now } from "../../clock.ts";
import { rateLimitsEnabled, servicePolicies, type RateLimitName } from "./rate-limit-policies.ts";

/** One limit a request is counted against. `cost` 0 reads the bucket without counting (a back-off check). */
export type RateLimitHit = { name: RateLimitName; key: string; cost?: 0 | 1 };

/**
 * Whose tenant the request is, for the tenant's overrides and its own buckets: known (a session's,
 * a principal's), or to be found from the activation code's lookup key or the OAuth client id in the
 * same statement (an anonymous caller names no tenant). None found: the service-wide policy, and
 * buckets shared by every caller without a tenant.
 */
export type RateLimitTenant = { tenantId?: string; codeLookupKey?: string; clientId?: string };

export type RateLimitState = {
  name: RateLimitName;
  limit: number;
  windowSeconds: number;
  /** Requests left in the window after this one (0 when refused). */
  remaining: number;
  /** Seconds until the window ends and the bucket is full again. */
  resetSeconds: number;
  exceeded: boolean;
};

/** The parameters of the counting statement, in the order of HIT's `$1`…`$9`. */
const HIT_PARAMS = [
  "tenant",
  "codeLookupKey",
  "clientId",
  "names",
  "keys",
  "at",
  "costs",
  "limits",
  "windows",
] as const;
type HitParam = (typeof HIT_PARAMS)[number];

/**
 * The counting CTEs: resolve the tenant, take its overrides or the service policies, and bump a
 * fixed-window counter per limit with INSERT ... ON CONFLICT ... RETURNING. `param` names each
 * parameter's placeholder and `cte` the CTEs, so a hot statement can count in its own round trip
 * (rateLimitCountCte) with the very SQL of HIT.
 */
function countingCtes(param: (name: HitParam) => string, cte: { tenant: string; limits: string }) {
  const $ = param;
  const aliased = (name: string, alias: string) => (name === alias ? name : `${name} ${alias}`);
  return {
    with: `${cte.tenant} AS (
  SELECT COALESCE(
    ${$("tenant")}::uuid,
    (SELECT "tenantId" FROM "ActivationCode" WHERE "lookupKey" = ${$("codeLookupKey")}::text),
    (SELECT "tenantId" FROM "OAuthClient" WHERE "clientId" = ${$("clientId")}::text)
  ) AS id
), ${cte.limits} AS (
  SELECT r.name, r.key, r.cost, t.id AS tenant,
         COALESCE(o."limit", r.lim) AS lim, COALESCE(o."windowSeconds", r.win) AS win
  FROM unnest(${$("names")}::text[], ${$("keys")}::text[], ${$("costs")}::int[], ${$("limits")}::int[], ${$("windows")}::int[]) AS r(name, key, cost, lim, win)
  CROSS JOIN ${aliased(cte.tenant, "t")}
  LEFT JOIN "RateLimitOverride" o ON o."tenantId" = t.id AND o."name" = r.name
)`,
    insert: `INSERT INTO "RateLimitCounter" ("bucket", "windowStart", "hits", "limit", "windowSeconds")
SELECT r.name || ':' || COALESCE(r.tenant::text, '-') || ':' || r.key,
       to_timestamp(floor(extract(epoch FROM ${$("at")}::timestamptz) / r.win) * r.win),
       r.cost, r.lim, r.win
FROM ${aliased(cte.limits, "r")}
ORDER BY r.name, r.key
ON CONFLICT ("bucket", "windowStart") DO UPDATE
  SET "hits" = "RateLimitCounter"."hits" + EXCLUDED."hits", "limit" = EXCLUDED."limit"
RETURNING "bucket", "hits", "limit", "windowSeconds", "windowStart"`,
  };
}

/**
 * One statement, one round trip (docs/architecture.md sections 11 and 12): resolve the tenant, take its
 * overrides or the service policies, and bump a fixed-window counter per limit with
 * INSERT ... ON CONFLICT ... RETURNING. The counter row is locked only for the statement itself
 * (autocommit), never across the request. The window start is computed here from `$6` so an
 * injected clock moves it like everything else. Counters are locked in one order (by name and
 * key) by every statement: the join's row order changes with the plan (a generic plan after a
 * few runs), and two parallel activations counting `activation.ip` and `activation.code` in
 * opposite orders deadlocked.
 */
const hitCtes = countingCtes((name) => `$${HIT_PARAMS.indexOf(name) + 1}`, { tenant: "t", limits: "r" });
const HIT: Statement = {
  name: "rate-limit-hit",
  text: `
WITH ${hitCtes.with}, hit AS (
${hitCtes.insert}
)
SELECT * FROM hit`,
};

/**
 * The same count as CTEs of another autocommitted statement, so a hot path counts its request in
 * the round trip that does its work: `rl_tenant`, `rl_limits` and `rl` (the counters after the
 * bump, HIT's rows). The statement makes its writes conditional on
 * `NOT EXISTS (SELECT 1 FROM rl WHERE rl.hits > rl."limit")`, so a refused request does nothing
 * but count (refused requests count, as with HIT). `first` is the number of its first
 * parameter; the nine parameters are `PendingRateLimits.values()`.
 */
export function rateLimitCountCte(first: number): string {
  const ctes = countingCtes((name) => `$${HIT_PARAMS.indexOf(name) + first}`, {
    tenant: "rl_tenant",
    limits: "rl_limits",
  });
  return `${ctes.with}, rl AS (
${ctes.insert}
)`;
}

/** The condition a statement with rateLimitCountCte puts on its writes. */
export const WITHIN_RATE_LIMITS = `NOT EXISTS (SELECT 1 FROM rl WHERE rl.hits > rl."limit")`;

/** The counters `rl` returned, as one JSON column of the statement's answer (read with counterRows). */
export const RATE_LIMIT_ROWS = `(SELECT coalesce(json_agg(json_build_object('bucket', bucket, 'hits', hits,
  'limit', "limit", 'windowSeconds', "windowSeconds", 'windowStart', (extract(epoch FROM "windowStart") * 1000)::bigint)), '[]')
  FROM rl)`;

/** RATE_LIMIT_ROWS's column as HIT's rows. */
export const counterRows = (
  json: (Omit<CounterRow, "windowStart"> & { windowStart: number })[],
): CounterRow[] => json.map((r) => ({ ...r, windowStart: new Date(r.windowStart) }));

/**
 * A bucket key as stored: printable ASCII up to 128 characters as it is, anything else (a huge or
 * binary client id, a NUL byte PostgreSQL would refuse) as its SHA-256, so no input can make the
 * statement fail or bloat the index.
 */
const bucketKey = (key: string) =>
  /^[\x21-\x7e]{1,128}$/.test(key) ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;

/** A lookup value that can match nothing when it could not be stored anyway. */
const lookup = (value: string | undefined) => (value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : null);

export type CounterRow = {
  bucket: string;
  hits: number;
  limit: number;
  windowSeconds: number;
  windowStart: Date;
};

/** The values of the counting parameters, in HIT's order (no hits: counts nothing). */
export function hitValues(tenant: RateLimitTenant, hits: RateLimitHit[], at: Date): unknown[] {
  const counted = rateLimitsEnabled() ? hits : [];
  const policies = servicePolicies();
  return [
    tenant.tenantId ?? null,
    lookup(tenant.codeLookupKey),
    lookup(tenant.clientId),
    counted.map((h) => h.name),
    counted.map((h) => bucketKey(h.key)),
    at,
    counted.map((h) => h.cost ?? 1),
    counted.map((h) => policies[h.name].limit),
    counted.map((h) => policies[h.name].windowSeconds),
  ];
}

/** Per limit, from the counters after the bump: whether it is over and what remains. */
export function rateLimitStates(hits: RateLimitHit[], rows: CounterRow[], at: Date): RateLimitState[] {
  if (!rateLimitsEnabled()) return [];
  return hits.map((hit) => {
    const row = rows.find((r) => r.bucket.startsWith(`${hit.name}:`))!;
    const counted = (hit.cost ?? 1) === 1;
    const exceeded = counted ? row.hits > row.limit : row.hits >= row.limit;
    const resetMs = row.windowStart.getTime() + row.windowSeconds * 1000 - at.getTime();
    return {
      name: hit.name,
      limit: row.limit,
      windowSeconds: row.windowSeconds,
      remaining: Math.max(0, row.limit - row.hits),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
      exceeded,
    };
  });
}

/**
 * A request's limits that its handler counts itself (a contract's `rateLimitsCountedByHandler`):
 * in its own hot statement (rateLimitCountCte with `values()`, then `settle` with the rows `rl`
 * returned), or with `enforce` in a statement of their own on a path that cannot fold them in.
 * Either way before the request has any effect, and once: after the first count, `values()` counts
 * nothing and `enforce` does nothing.
 */
export type PendingRateLimits = {
  values(): unknown[];
  /** Throws 429 `request.rate_limited` when a limit is over. */
  settle(rows: CounterRow[]): void;
  enforce(): Promise<void>;
};

/** Limits already counted (or none to count): what a caller outside a route passes. */
export const countedRateLimits: PendingRateLimits = {
  values: () => hitValues({}, [], new Date(0)),
  settle: () => {},
  enforce: async () => {},
};

/**
 * Counts a request against its limits and says, per limit, whether it is over. A counted hit is
 * over when the window's count passes the limit; a read-only one (cost 0, the failed-secret
 * back-off) when the count has reached it. Refused requests count too, so hammering does not
 * shorten the wait.
 */
export async function hitRateLimits(
  tenant: RateLimitTenant,
  hits: RateLimitHit[],
): Promise<RateLimitState[]> {
  return (await countRateLimits(tenant, hits)).states;
}

/** The counted request's states and its counter rows after the bump (what a refund names: credential-attempts.ts). */
export type RateLimitOutcome = { states: RateLimitState[]; counters: CounterRow[] };

/** hitRateLimits, with the counter rows its statement wrote. */
export async function countRateLimits(
  tenant: RateLimitTenant,
  hits: RateLimitHit[],
): Promise<RateLimitOutcome> {
  if (!hits.length || !rateLimitsEnabled()) return { states: [], counters: [] };
  const at = now();
  const values = hitValues(tenant, hits, at);
  // The service-wide limiter counts before any tenant or client is known: the process's pool.
  const rows = await processSql().query<CounterRow>(HIT, values);
  return { states: rateLimitStates(hits, rows, at), counters: rows };
}
