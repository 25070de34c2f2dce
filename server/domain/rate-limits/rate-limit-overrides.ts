import type { DomainContext } from "../context.ts";
import { validationError } from "../../core/errors.ts";
import { zodIssues } from "../../core/zod-issues.ts";
import {
  RATE_LIMIT_NAMES,
  servicePolicies,
  ZRateLimitName,
  ZRateLimitPolicy,
  type RateLimitName,
  type RateLimitPolicy,
} from "./rate-limit-policies.ts";

/** Limits counted before a tenant is known: a tenant's own value could never apply. */
const SERVICE_WIDE_LIMITS: readonly RateLimitName[] = ["signin.failed_password"];

export type EffectiveRateLimit = RateLimitPolicy & { name: RateLimitName; overridden: boolean };

/** Every limit as it applies to the tenant: its override, else the service policy. */
export async function listTenantRateLimits(ctx: DomainContext): Promise<EffectiveRateLimit[]> {
  const overrides = await ctx.db.rateLimitOverride.findMany({});
  const policies = servicePolicies();
  return RATE_LIMIT_NAMES.map((name) => {
    const own = overrides.find((o) => o.name === name);
    return own
      ? { name, limit: own.limit, windowSeconds: own.windowSeconds, overridden: true }
      : { name, ...policies[name], overridden: false };
  });
}

/**
 * Sets the tenant's own value for one limit (a vendor whose customers sit behind one NAT raises
 * `activation.ip`; one that wants stricter usage calls lowers `usage.session`). Applies from the
 * next request on, in every web process: the limiter reads overrides in its one statement.
 */
export async function setTenantRateLimit(
  ctx: DomainContext,
  input: { name: string; limit: number; windowSeconds: number },
): Promise<EffectiveRateLimit> {
  const name = ZRateLimitName.safeParse(input.name);
  if (!name.success)
    throw validationError(`Unknown rate limit ${input.name}; known: ${RATE_LIMIT_NAMES.join(", ")}.`);
  if (SERVICE_WIDE_LIMITS.includes(name.data))
    throw validationError(
      `${name.data} is counted before any tenant is known (sign-in); set it for the service with RATE_LIMITS.`,
    );
  const policy = ZRateLimitPolicy.safeParse({ limit: input.limit, windowSeconds: input.windowSeconds });
  if (!policy.success) {
    const issues = zodIssues(policy.error, "body");
    throw validationError(issues.map((i) => `${i.path}: ${i.message}`).join("; "), issues);
  }
  await ctx.db.rateLimitOverride.upsert({
    where: { tenantId_name: { tenantId: ctx.tenantId, name: name.data } },
    create: { tenantId: ctx.tenantId, name: name.data, ...policy.data },
    update: policy.data,
  });
  return { name: name.data, ...policy.data, overridden: true };
}

/** Drops the tenant's own value: the service policy applies again. */
export async function resetTenantRateLimit(ctx: DomainContext, name: string): Promise<void> {
  await ctx.db.rateLimitOverride.deleteMany({ where: { name } });
}
