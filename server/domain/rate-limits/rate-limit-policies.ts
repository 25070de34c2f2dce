import { z } from "zod";
import { rateLimitSetting } from "../../config.ts";

/**
 * The rate limits of the service (docs/security.md "Rate limits"). Each is a fixed window: at most
 * `limit` requests per `windowSeconds` per bucket. A bucket is the limit's name, the tenant the
 * request belongs to (when it is known: an activation code's tenant, a client's, a session's) and
 * the key below. Defaults here; the `RATE_LIMITS` setting replaces them for the whole service and a
 * tenant's overrides (rate-limit-overrides.ts) replace them for that tenant.
 */
export const RATE_LIMIT_NAMES = [
  /** Activations per caller address (anonymous: the address is all there is). */
  "activation.ip",
  /** Activations per activation code (its lookup key: every spelling of one code counts together). */
  "activation.code",
  /** Token requests per client id (or user name for the password grant). */
  "token.client",
  /** Failed secrets per client id and address: past the limit the client backs off until the window ends. */
  "token.failed_secret",
  /** Usage calls (upload, consume, preview, reads, rating prompt) per license session. */
  "usage.session",
  /** Failed back-office and portal sign-ins per email and address: past the limit, that pair backs off. */
  "signin.failed_password",
] as const;

export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

export type RateLimitPolicy = { limit: number; windowSeconds: number };

export const DEFAULT_RATE_LIMITS: Record<RateLimitName, RateLimitPolicy> = {
  // A corporate network behind one NAT rolls out many machines: generous per address.
  "activation.ip": { limit: 300, windowSeconds: 60 },
  // A volume code is shared by a whole deployment, yet guessing or replaying one code is throttled.
  "activation.code": { limit: 120, windowSeconds: 60 },
  // A backend asks for a token every few minutes; hundreds a minute is a loop or an attack.
  "token.client": { limit: 300, windowSeconds: 60 },
  // Ten wrong secrets in five minutes from one address: that client backs off for the rest of the window.
  "token.failed_secret": { limit: 10, windowSeconds: 300 },
  // Ten usage calls a second per running copy, sustained over a minute.
  "usage.session": { limit: 600, windowSeconds: 60 },
  // Ten wrong passwords in five minutes for one email from one address, as for client secrets.
  // Keyed by address too, so nobody can lock a user out from elsewhere.
  "signin.failed_password": { limit: 10, windowSeconds: 300 },
};

/** One window is at most a day and a limit at least 1: nothing a counter row cannot express. */
export const ZRateLimitPolicy = z.object({
  limit: z.number().int().min(1).max(1_000_000_000),
  windowSeconds: z.number().int().min(1).max(86_400),
});

export const ZRateLimitName = z.enum(RATE_LIMIT_NAMES);

/**
 * Parses the `RATE_LIMITS` setting: `name=limit/windowSeconds` entries separated by commas, e.g.
 * `activation.ip=1000/60,usage.session=1200/60`. An unknown name or a malformed entry is an error
 * at start-up rather than a silently ignored limit.
 */
export function parseRateLimitSetting(
  value: string | undefined,
): Partial<Record<RateLimitName, RateLimitPolicy>> {
  const out: Partial<Record<RateLimitName, RateLimitPolicy>> = {};
  for (const entry of (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^([\w.]+)=(\d+)\/(\d+)$/.exec(entry);
    const name = match && ZRateLimitName.safeParse(match[1]);
    const policy =
      match && ZRateLimitPolicy.safeParse({ limit: Number(match[2]), windowSeconds: Number(match[3]) });
    if (!name?.success || !policy?.success)
      throw new Error(
        `RATE_LIMITS: "${entry}" is not name=limit/windowSeconds with a known name (${RATE_LIMIT_NAMES.join(", ")}).`,
      );
    out[name.data] = policy.data;
  }
  return out;
}

/**
 * `RATE_LIMITS=off` switches every limit off (no statement runs): for measuring what the limiter
 * costs, or behind a gateway that limits already. Never the default.
 */
export const rateLimitsEnabled = (): boolean => rateLimitSetting()?.trim() !== "off";

let configured: Record<RateLimitName, RateLimitPolicy> | undefined;

/** The service-wide policies: the defaults above with the `RATE_LIMITS` setting applied (read once). */
export function servicePolicies(): Record<RateLimitName, RateLimitPolicy> {
  configured ??= {
    ...DEFAULT_RATE_LIMITS,
    ...(rateLimitsEnabled() ? parseRateLimitSetting(rateLimitSetting()) : {}),
  };
  return configured;
}
