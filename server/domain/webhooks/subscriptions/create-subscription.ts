import type { DomainContext } from "../../context.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { seal } from "../../../crypto/secret-box.ts";
import { assertCallbackScopesGrantable, validateCallbackScopes } from "./callback-scopes.ts";
import { validateEventTypePatterns } from "./event-type-patterns.ts";
import { assertReceiverUrl, type Resolver } from "./receiver-url.ts";
import { allowPrivateReceiverUrls } from "../delivery/settings.ts";
import { generateSigningSecret, validateSigningSecret } from "./signing-secret.ts";
import type { SubscriptionAccess } from "./subscription-access.ts";
import { validateFilters } from "./subscription-filters.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import {
  ZSubscriptionCreateRequest,
  type TSubscriptionCreateRequest,
  type TSubscriptionWithSecretResponse,
} from "./subscription.schemas.ts";

export const notApplicableToCapture = (what: string) =>
  new AppError(
    "subscription.not_applicable",
    `Capture subscriptions have no receiver: ${what} does not apply.`,
  );

/**
 * docs/api.md "Subscriptions": an Http subscription (the default) needs a public https URL and starts
 * PendingVerification; a Capture subscription has no URL, secret or callback scopes and starts
 * Active. The signing secret is generated unless supplied, and answered this once. Callback
 * scopes must be ones the creating credential may grant (docs/security.md "Webhooks").
 */
export async function createSubscription(
  ctx: DomainContext,
  access: SubscriptionAccess,
  request: TSubscriptionCreateRequest,
  options: { resolve?: Resolver } = {},
): Promise<TSubscriptionWithSecretResponse> {
  const input = ZSubscriptionCreateRequest.parse(request);
  const capture = input.targetKind === "Capture";
  if (capture && access.surface === "integrator") {
    throw new AppError(
      "subscription.not_applicable",
      "Capture subscriptions are not available on the integrator surface.",
    );
  }
  if (capture && input.url) throw notApplicableToCapture("a URL");
  if (capture && input.secret) throw notApplicableToCapture("a signing secret");
  if (capture && input.callbackScopes?.length) throw notApplicableToCapture("callback scopes");
  if (!capture && !input.url)
    throw validationError("An Http subscription needs a url.", [
      { path: "body.url", message: "required for targetKind Http" },
    ]);

  const eventTypePatterns = validateEventTypePatterns(input.eventTypePatterns);
  const filters = validateFilters(input.filters, eventTypePatterns);
  const callbackScopes = validateCallbackScopes(input.callbackScopes ?? []);
  await assertCallbackScopesGrantable(ctx, access, callbackScopes);
  const secret = capture
    ? null
    : input.secret
      ? validateSigningSecret(input.secret)
      : generateSigningSecret();
  const url = capture
    ? null
    : await assertReceiverUrl(input.url!, {
        allowPrivate: allowPrivateReceiverUrls(),
        resolve: options.resolve,
      });

  const row = await ctx.db.webhookSubscription.create({
    data: {
      tenantId: ctx.tenantId,
      targetKind: input.targetKind,
      url,
      displayName: input.displayName,
      eventTypePatterns,
      filters: filters ?? undefined,
      callbackScopes,
      state: capture ? "Active" : "PendingVerification",
      createdVia: access.surface,
      ownerClientId: access.surface === "integrator" ? access.ownerClientId : null,
      secretSealed: secret ? seal(secret) : null,
    },
  });
  return { ...toSubscriptionResponse(row), secret };
}
