import type { Db } from "../../../db/client.ts";
import { tenantDb } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import {
  customersOfLogin,
  entitlementIdsOfCustomers,
} from "../../entitlements/consumer/consumer-entitlements.ts";
import type { PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";
import { findActivationCodeByInput } from "../activation-codes/find-activation-code.ts";
import type { ActivationMeta } from "./activation-outcome.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { refuseUnverifiedHolder } from "./unverified-holder.ts";

/**
 * Step 1: which tenant and entitlement the request names (code lookup with normalization, or the
 * signed-in user's one license). This step reads the code, and counts the request's rate limits
 * in the same statement (find-activation-code.ts); without a code, in a statement of their own.
 */
export async function resolveEntitlement(
  base: Db,
  input: TActivationRequest,
  meta: ActivationMeta,
  limits: PendingRateLimits,
) {
  const code = input.activationCode
    ? await findActivationCodeByInput(base, input.activationCode, limits)
    : null;
  if (!input.activationCode) await limits.enforce();
  if (input.activationCode && !code) throw notFound("Activation code");
  if (input.useInteractiveUser) {
    if (!meta.user)
      throw new AppError(
        "license.user_authentication_required",
        "useInteractiveUser needs the signed-in user's bearer token.",
      );
    if (code && code.tenantId !== meta.user.tenantId) throw notFound("Activation code");
    const userDb = tenantDb(base, meta.user.tenantId);
    const mine = await entitlementIdsOfCustomers(userDb, await customersOfLogin(userDb, meta.user.id), {
      status: "Published",
    });
    if (code) {
      if (!mine.includes(code.entitlementId)) {
        await refuseUnverifiedHolder(userDb, meta.user.id, code.entitlementId);
        throw notFound("Activation code");
      }
    } else if (mine.length === 0) {
      await refuseUnverifiedHolder(userDb, meta.user.id, null);
      throw notFound("License for the signed-in user");
    } else if (mine.length > 1) {
      throw new AppError(
        "license.activation_code_required",
        `The signed-in user holds ${mine.length} licenses; name one with activationCode.`,
      );
    }
    if (code?.status === "Revoked")
      throw new AppError("activation_code.revoked", "The activation code has been revoked.");
    return { tenantId: meta.user.tenantId, entitlementId: code?.entitlementId ?? mine[0], code };
  }
  if (!code)
    throw new AppError(
      "license.activation_code_required",
      "activationCode is required unless useInteractiveUser resolves exactly one license.",
    );
  if (code.status === "Revoked")
    throw new AppError("activation_code.revoked", "The activation code has been revoked.");
  return { tenantId: code.tenantId, entitlementId: code.entitlementId, code };
}
