import { AppError } from "../../../core/errors.ts";

/** A validity window ends after it starts (either end may be open). */
export function checkValidity(
  notValidBefore: string | Date | null | undefined,
  expiration: string | Date | null | undefined,
): void {
  if (!notValidBefore || !expiration) return;
  if (new Date(expiration).getTime() <= new Date(notValidBefore).getTime()) {
    throw new AppError(
      "entitlement.invalid_validity",
      "expirationDateTime must be after notValidBeforeDateTime.",
    );
  }
}
