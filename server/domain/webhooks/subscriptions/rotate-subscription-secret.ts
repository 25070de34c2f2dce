import type { DomainContext } from "../../context.ts";
import { open, seal } from "../../../crypto/secret-box.ts";
import { now } from "../../../clock.ts";
import { notApplicableToCapture } from "./create-subscription.ts";
import { generateSigningSecret, validateSigningSecret } from "./signing-secret.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import type { TSecretRotationRequest, TSubscriptionWithSecretResponse } from "./subscription.schemas.ts";

export const DEFAULT_OVERLAP_SECONDS = 24 * 60 * 60;

/**
 * docs/api.md "Subscriptions": the new secret (generated unless supplied, answered this once) signs from now
 * on; the replaced one keeps signing beside it until the overlap window ends, so
 * `webhook-signature` carries both. Rotating again during a window replaces the older secret.
 * Capture subscriptions have no secret: 400 subscription.not_applicable (4022).
 */
export async function rotateSubscriptionSecret(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  input: TSecretRotationRequest,
): Promise<TSubscriptionWithSecretResponse> {
  const current = await findSubscription(ctx, access, id);
  if (current.targetKind === "Capture") throw notApplicableToCapture("secret rotation");
  const secret = input.secret ? validateSigningSecret(input.secret) : generateSigningSecret();
  const at = now();
  const overlapSeconds = input.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
  const keepPrevious = overlapSeconds > 0 && current.secretSealed && open(current.secretSealed) !== secret;
  const row = await ctx.db.webhookSubscription.update({
    where: { id },
    data: {
      secretSealed: seal(secret),
      previousSecretSealed: keepPrevious ? current.secretSealed : null,
      previousSecretExpiresAt: keepPrevious ? new Date(at.getTime() + overlapSeconds * 1000) : null,
      secretRotatedAt: at,
      revisionNumber: { increment: 1 },
    },
  });
  return { ...toSubscriptionResponse(row), secret };
}
