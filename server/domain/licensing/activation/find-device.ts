import type { Entitlement } from "../../../db/generated/client.ts";
import type { SqlTx } from "../../../db/sql.ts";
import { AppError } from "../../../core/errors.ts";
import type {
  TActivationPolicy,
  TClaimBasedActivation,
} from "../../entitlements/entitlement/policies.schemas.ts";
import type { ActivationFacts, DeviceFacts } from "./activation-facts.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { rekeyDeviceByComponents } from "./component-matching.ts";

/**
 * Steps 4-5: the device (by fingerprint hash, or by its components per the strategy, which
 * re-keys it: component-matching.ts): pre-registered when required, not blocked.
 */
export async function findDevice(
  sql: SqlTx,
  e: Entitlement,
  facts: ActivationFacts,
  claims: TClaimBasedActivation,
  policy: TActivationPolicy,
  input: TActivationRequest,
  hash: string,
  at: Date,
): Promise<{ device: DeviceFacts | null; rekeyed: boolean }> {
  let device: DeviceFacts | null = facts.device;
  let rekeyed = false;
  if (!device && input.components) {
    device = await rekeyDeviceByComponents(
      sql,
      e.tenantId,
      e.id,
      input.components,
      claims.componentMatchingStrategy,
      hash,
      at,
    );
    rekeyed = device !== null;
  }
  if (policy.requirePreConfiguredDeviceIdentification && !device?.isPreRegistered)
    throw new AppError(
      "license.device_not_registered",
      "This license admits only devices the vendor registered in advance.",
    );
  if (device?.isBlocked)
    throw new AppError("license.device_blocked", "The device is blocked on this license.");
  return { device, rekeyed };
}
