import type { DomainContext } from "../../server/domain/context.ts";
import type { Db } from "../../server/db/client.ts";
import { issueActivationCodes } from "../../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { activate } from "../../server/domain/licensing/activation/activate.ts";
import { AppError } from "../../server/core/errors.ts";

/**
 * Demo activation code: on the demo tenant's oldest Published entitlement (seeded by the
 * entitlements seed, which must run first), one code with a device limit of 3, issued once.
 * Returns the code and its entitlement, or null when there is no entitlement yet.
 */
export async function seedActivationCode(
  ctx: DomainContext,
): Promise<{ code: string; entitlementId: string } | null> {
  const entitlement = await ctx.db.entitlement.findFirst({
    where: { status: "Published" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  if (!entitlement) return null;
  const existing = await ctx.db.activationCode.findFirst({
    where: { entitlementId: entitlement.id, status: "Active" },
    orderBy: { createdAt: "asc" },
  });
  if (existing) return { code: existing.code, entitlementId: entitlement.id };
  const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1, deviceLimit: 3 });
  return { code: issued.codes[0].code, entitlementId: entitlement.id };
}

/** The demo devices that activate the seeded code, so the Sessions page and the portal have something to show. */
const demoDevices = [
  { fingerprint: "demo-device-workstation-0001", deviceName: "Design workstation" },
  { fingerprint: "demo-device-laptop-0002", deviceName: "Field laptop" },
];

/**
 * Activates the demo code on two demo devices through the real activation decision. Running the
 * seed again returns the same sessions (same code and fingerprint), never more seats. Returns the
 * session ids; a refusal (no free seat, say) skips that device.
 */
export async function seedDemoSessions(db: Db, code: string): Promise<string[]> {
  const ids: string[] = [];
  for (const device of demoDevices) {
    try {
      const outcome = await activate(
        db,
        { activationCode: code, fingerprint: device.fingerprint, deviceName: device.deviceName },
        { kind: "Online", ip: null, idempotencyKey: null, user: null },
      );
      ids.push(outcome.session.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return ids;
}
