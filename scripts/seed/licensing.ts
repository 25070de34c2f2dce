import type { DomainContext } from "../../server/domain/context.ts";
import { issueActivationCodes } from "../../server/domain/entitlements/issue-activation-codes.ts";

/**
 * Demo activation code: on the demo tenant's oldest Published entitlement (seeded by the
 * entitlements seed, which must run first), one code with a device limit of 3, issued once.
 * Returns the code and its entitlement, or null when there is no entitlement yet.
 */
export async function seedActivationCode(ctx: DomainContext): Promise<{ code: string; entitlementId: string } | null> {
  const entitlement = await ctx.db.entitlement.findFirst({ where: { status: "Published" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  if (!entitlement) return null;
  const existing = await ctx.db.activationCode.findFirst({ where: { entitlementId: entitlement.id, status: "Active" }, orderBy: { createdAt: "asc" } });
  if (existing) return { code: existing.code, entitlementId: entitlement.id };
  const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1, deviceLimit: 3 });
  return { code: issued.codes[0].code, entitlementId: entitlement.id };
}
