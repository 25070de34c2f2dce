import { createHash } from "node:crypto";
import type { ActivationCode } from "../../db/generated/client.ts";
import { pgPool } from "../../db/pool.ts";
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

/**
 * One statement, one round trip (DESIGN.md sections 11 and 12): resolve the tenant, take its
 * overrides or the service policies, and bump a fixed-window counter per limit with
 * INSERT ... ON CONFLICT ... RETURNING. The counter row is locked only for the statement itself
 * (autocommit), never across the request. The window start is computed here from `$6` so an
 * injected clock moves it like everything else.
 */
const HIT_SQL = `
WITH found_code AS (
  SELECT * FROM "ActivationCode" WHERE "lookupKey" = $2::text
), t AS (
  SELECT COALESCE(
    $1::uuid,
    (SELECT "tenantId" FROM found_code),
    (SELECT "tenantId" FROM "OAuthClient" WHERE "clientId" = $3::text)
  ) AS id
), r AS (
  SELECT r.name, r.key, r.cost, t.id AS tenant,
         COALESCE(o."limit", r.lim) AS lim, COALESCE(o."windowSeconds", r.win) AS win
  FROM unnest($4::text[], $5::text[], $7::int[], $8::int[], $9::int[]) AS r(name, key, cost, lim, win)
  CROSS JOIN t
  LEFT JOIN "RateLimitOverride" o ON o."tenantId" = t.id AND o."name" = r.name
), hit AS (
  INSERT INTO "RateLimitCounter" ("bucket", "windowStart", "hits", "limit", "windowSeconds")
  SELECT r.name || ':' || COALESCE(r.tenant::text, '-') || ':' || r.key,
         to_timestamp(floor(extract(epoch FROM $6::timestamptz) / r.win) * r.win),
         r.cost, r.lim, r.win
  FROM r
  ON CONFLICT ("bucket", "windowStart") DO UPDATE
    SET "hits" = "RateLimitCounter"."hits" + EXCLUDED."hits", "limit" = EXCLUDED."limit"
  RETURNING "bucket", "hits", "limit", "windowSeconds", "windowStart"
)
SELECT hit.*, (SELECT to_jsonb(c) FROM found_code c) AS code FROM hit`;

/**
 * A bucket key as stored: printable ASCII up to 128 characters as it is, anything else (a huge or
 * binary client id, a NUL byte PostgreSQL would refuse) as its SHA-256, so no input can make the
 * statement fail or bloat the index.
 */
const bucketKey = (key: string) =>
  /^[\x21-\x7e]{1,128}$/.test(key) ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;

/** A lookup value that can match nothing when it could not be stored anyway. */
const lookup = (value: string | undefined) => (value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : null);

type Row = {
  bucket: string;
  hits: number;
  limit: number;
  windowSeconds: number;
  windowStart: Date;
  code: (Omit<ActivationCode, "revokedAt" | "createdAt" | "updatedAt"> & Record<string, unknown>) | null;
};

/**
 * The counted request's states, and the activation code its statement found by `codeLookupKey`
 * (null: none; undefined: the statement did not run or was given no lookup key), so activation
 * does not read it again (DESIGN.md section 11: the fewest round trips).
 */
export type RateLimitOutcome = { states: RateLimitState[]; activationCode?: ActivationCode | null };

const reviveCode = (row: NonNullable<Row["code"]>): ActivationCode => ({
  ...(row as unknown as ActivationCode),
  revokedAt: row.revokedAt ? new Date(row.revokedAt as string) : null,
  createdAt: new Date(row.createdAt as string),
  updatedAt: new Date(row.updatedAt as string),
});

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

/** hitRateLimits, with the activation code the statement read to find the tenant. */
export async function countRateLimits(
  tenant: RateLimitTenant,
  hits: RateLimitHit[],
): Promise<RateLimitOutcome> {
  if (!hits.length || !rateLimitsEnabled()) return { states: [] };
  const policies = servicePolicies();
  const at = now();
  const codeLookupKey = lookup(tenant.codeLookupKey);
  const { rows } = await pgPool().query<Row>({
    name: "rate-limit-hit",
    text: HIT_SQL,
    values: [
      tenant.tenantId ?? null,
      codeLookupKey,
      lookup(tenant.clientId),
      hits.map((h) => h.name),
      hits.map((h) => bucketKey(h.key)),
      at,
      hits.map((h) => h.cost ?? 1),
      hits.map((h) => policies[h.name].limit),
      hits.map((h) => policies[h.name].windowSeconds),
    ],
  });
  const code = rows[0]?.code;
  const states = hits.map((hit) => {
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
  return codeLookupKey === null ? { states } : { states, activationCode: code ? reviveCode(code) : null };
}
