/** Environment settings, read in one place. */

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL).");
  return url;
}

/**
 * The service secret: encrypts signing keys at rest. npm start generates one into .data/ when
 * APP_SECRET is unset; production deployments set it (32+ random bytes, base64 or hex).
 */
export function appSecret(): string {
  const secret = process.env.APP_SECRET;
  if (!secret || secret.length < 32) throw new Error("APP_SECRET must be set to at least 32 characters.");
  return secret;
}

/** Public base URL of the service; used as the token issuer. */
export function publicUrl(): string {
  return (
    process.env.PUBLIC_URL ??
    process.env.NEXTAUTH_URL ??
    `http://localhost:${process.env.PORT ?? 3000}`
  ).replace(/\/$/, "");
}

/**
 * Whether browsers reach the service over https: either public URL says so. Session cookies are
 * then Secure, and pages ask browsers to upgrade any http subresource.
 */
export function servedOverHttps(): boolean {
  return [process.env.PUBLIC_URL, process.env.NEXTAUTH_URL].some((url) => /^https:\/\//i.test(url ?? ""));
}

export const accessTokenLifetimeSeconds = () => Number(process.env.ACCESS_TOKEN_TTL_SECONDS ?? 900);

/**
 * Proxies in front of the web process that append to X-Forwarded-For (load balancer, ingress):
 * 0 (default) means clients connect directly and only the TCP peer address counts.
 */
export function trustedProxyHops(): number {
  const hops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0);
  return Number.isInteger(hops) && hops >= 0 ? hops : 0;
}

/** A whole number of days from the environment, or the default when unset or not a positive integer. */
function envDays(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * Retention periods (docs/security.md "Retention"), swept by the worker's `retention_sweep`.
 * Idempotency records keep docs/api.md's 24 hours (purge_expired_idempotency) and captured deliveries
 * its 7 days (webhook_capture_retention).
 */
export function retentionDays() {
  return {
    /** Webhook envelopes with their deliveries and attempts, once nothing is left to send. */
    webhooks: envDays("WEBHOOK_RETENTION_DAYS", 30),
    /** Ended license sessions (released, reset, blocked, expired), counted from their end. */
    endedSessions: envDays("SESSION_RETENTION_DAYS", 400),
    /** Audit rows. */
    audit: envDays("AUDIT_RETENTION_DAYS", 365),
  };
}
/**
 * Whole months the partitioned ledgers keep (docs/operations.md "Data at scale: retention,
 * partitions and autovacuum"): `LEDGER_RETENTION_MONTHS`, default 25 (two years and the month under way).
 */
export function ledgerRetentionMonths(): number {
  const value = Number(process.env.LEDGER_RETENTION_MONTHS);
  return Number.isInteger(value) && value > 0 ? value : 25;
}

/**
 * Service-wide rate limits replacing the defaults (server/domain/rate-limits/rate-limit-policies.ts):
 * `name=limit/windowSeconds` entries separated by commas. Tenants can override them one by one.
 */
export const rateLimitSetting = (): string | undefined => process.env.RATE_LIMITS;

/** A whole number of milliseconds (or a count) from the environment; the default when unset or invalid. */
function envWhole(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * The web process's limits (README "Configuration", docs/security.md "Web process limits"): how long
 * a client may take to send its headers and its whole request, how long an idle keep-alive
 * connection stays open, how many connections one process holds, and how many sockets it opens
 * to its Next.js child (requests beyond them wait for a free one).
 */
export function webLimits() {
  return {
    headersTimeoutMs: envWhole("WEB_HEADERS_TIMEOUT_MS", 10_000),
    requestTimeoutMs: envWhole("WEB_REQUEST_TIMEOUT_MS", 120_000),
    keepAliveTimeoutMs: envWhole("WEB_KEEP_ALIVE_TIMEOUT_MS", 5_000),
    maxConnections: envWhole("WEB_MAX_CONNECTIONS", 4_096),
    nextMaxSockets: envWhole("WEB_NEXT_MAX_SOCKETS", 64),
    /** After SIGTERM, how long the process keeps serving with /api/ready at 503 before it closes. */
    drainDelayMs: Number(process.env.WEB_DRAIN_DELAY_MS ?? 0) || 0,
  };
}

/** Web processes per host sharing the port (server/web/main.ts): WEB_CONCURRENCY, else the cores. */
export function webConcurrency(cores: number): number {
  return envWhole("WEB_CONCURRENCY", cores);
}
