import { AppError } from "../../../core/errors.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { entitlementIdsOfCustomers } from "../../entitlements/consumer/consumer-entitlements.ts";

/**
 * Why a signed-in user's interactive activation found no license of theirs (docs/decisions.md
 * "Refusals that name the rule"). A user whose customer record the vendor has
 * not approved (or has blocked) holds nothing (consumer-entitlements.ts), so the license the code
 * names is not among theirs; answering 404 "Activation code not found" misled them: the code
 * exists and the license is theirs once the vendor verifies them. When the license belongs to one
 * of the login's unverified records, the refusal is 403 `license.user_not_verified` naming the
 * activation policy that requires verification. Otherwise nothing is said (the caller's 404
 * stands: a code of someone else's license stays unknown).
 */
export async function refuseUnverifiedHolder(
  db: TenantDbOrTx,
  userId: string,
  entitlementId: string | null,
): Promise<void> {
  const unverified = await db.customerUser.findMany({
    where: { userId, OR: [{ isApproved: false }, { isBlocked: true }] },
    select: { id: true, organizationIds: true, isBlocked: true },
  });
  if (!unverified.length) return;
  const held = await entitlementIdsOfCustomers(db, unverified, {
    status: "Published",
    ...(entitlementId ? { id: entitlementId } : {}),
  });
  if (!held.length) return;
  const license = await db.entitlement.findFirst({
    where: { id: held[0] },
    select: { activationPolicy: true },
  });
  const policy = (license?.activationPolicy ?? {}) as {
    requiredAuthenticationLevel?: string;
    requireNewUserVerification?: boolean;
  };
  const rule = policy.requireNewUserVerification
    ? "activationPolicy.requireNewUserVerification"
    : policy.requiredAuthenticationLevel === "VerifiedUser"
      ? "activationPolicy.requiredAuthenticationLevel VerifiedUser"
      : null;
  const state = unverified.every((c) => c.isBlocked) ? "is blocked" : "is not approved yet";
  throw new AppError(
    "license.user_not_verified",
    rule
      ? `The license requires a verified user (${rule}) and your customer record ${state}; ask the vendor to verify you.`
      : `Your customer record ${state}: a license activates for a verified user only; ask the vendor to verify you.`,
  );
}
