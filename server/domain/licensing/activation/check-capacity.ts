import { AppError } from "../../../core/errors.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import type { ActivationFacts } from "./activation-facts.ts";

/** Step 6: product end of life, only for a device that never activated the license. */
export function checkEndOfLife(productsEnded: boolean, everActivated: boolean) {
  if (productsEnded && !everActivated) {
    throw new AppError(
      "license.product_end_of_life",
      "Every product of this license is past its end of life, and this device never activated it.",
    );
  }
}

/** Steps 7-8: a free seat and room under the code's device limit. Sessions hold both while `seatHeldUntil` is ahead. */
export function checkCapacity(
  facts: ActivationFacts,
  claims: TClaimBasedActivation,
  deviceLimit: number | null,
  deviceId: string | null,
) {
  if (facts.seatsHeld >= claims.numberOfSeats)
    throw new AppError(
      "license.no_seat_available",
      `All ${claims.numberOfSeats} seats of this license are in use.`,
    );
  const holders = facts.codeHolders ?? [];
  if (deviceLimit !== null && !holders.includes(deviceId ?? "") && holders.length >= deviceLimit) {
    throw new AppError(
      "license.device_limit_reached",
      `The activation code admits ${deviceLimit} device(s) at once.`,
    );
  }
}
