/** Environment settings, read in one place. */

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL).");
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
  return (process.env.PUBLIC_URL ?? process.env.NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
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
