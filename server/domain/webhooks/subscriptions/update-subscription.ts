import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { Prisma } from "../../../db/generated/client.ts";
import { assertCallbackScopesGrantable, validateCallbackScopes } from "./callback-scopes.ts";
import { notApplicableToCapture } from "./create-subscription.ts";
import { validateEventTypePatterns } from "./event-type-patterns.ts";
import { assertReceiverUrl, type Resolver } from "./receiver-url.ts";
import { allowPrivateReceiverUrls } from "../delivery/settings.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";
import { validateFilters } from "./subscription-filters.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import { transition } from "./subscription-states.ts";
import type {
  TSubscriptionFilters,
  TSubscriptionState,
  TSubscriptionUpdateRequest,
} from "./subscription.schemas.ts";

/**
 * Merge-PATCH of URL, display name, event-type patterns, filters and callback scopes. A new URL
 * is checked like at creation and sends the subscription back to PendingVerification (docs/api.md
 * "States and transitions"). Changing the patterns re-checks the filters that are kept.
 */
export async function updateSubscription(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  input: TSubscriptionUpdateRequest,
  options: { resolve?: Resolver } = {},
) {
  const current = await findSubscription(ctx, access, id);
  const capture = current.targetKind === "Capture";
  if (input.targetKind && input.targetKind !== current.targetKind) {
    throw new AppError(
      "subscription.not_applicable",
      `The target kind is fixed at creation; a ${current.targetKind} subscription stays ${current.targetKind}.`,
    );
  }
  if (capture && input.url) throw notApplicableToCapture("a URL");
  if (capture && input.callbackScopes?.length) throw notApplicableToCapture("callback scopes");

  const eventTypePatterns = input.eventTypePatterns
    ? validateEventTypePatterns(input.eventTypePatterns)
    : current.eventTypePatterns;
  const keptFilters = input.clearFilters
    ? null
    : (input.filters ?? (current.filters as TSubscriptionFilters | null));
  const filters = validateFilters(keptFilters, eventTypePatterns);
  const callbackScopes = input.callbackScopes ? validateCallbackScopes(input.callbackScopes) : undefined;
  if (callbackScopes) await assertCallbackScopesGrantable(ctx, access, callbackScopes);

  let url: string | undefined;
  let states: { state: TSubscriptionState; resumeState: TSubscriptionState | null } | undefined;
  if (input.url) {
    url = await assertReceiverUrl(input.url, {
      allowPrivate: allowPrivateReceiverUrls(),
      resolve: options.resolve,
    });
    if (url !== current.url) {
      states = transition(
        {
          state: current.state as TSubscriptionState,
          resumeState: current.resumeState as TSubscriptionState | null,
        },
        "urlChanged",
      );
    }
  }

  const { count } = await ctx.db.webhookSubscription.updateMany({
    where: { id, ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}) },
    data: {
      ...(url ? { url } : {}),
      ...(states ? { ...states, lastVerificationAt: null, lastVerificationError: null } : {}),
      ...(input.displayName ? { displayName: input.displayName } : {}),
      eventTypePatterns,
      filters: filters ?? Prisma.DbNull,
      ...(callbackScopes ? { callbackScopes } : {}),
      revisionNumber: { increment: 1 },
    },
  });
  if (count === 0) {
    throw new AppError(
      "concurrency.revision_mismatch",
      `The subscription was changed since revision ${input.revisionNumber}; reload it and try again.`,
    );
  }
  return toSubscriptionResponse(await ctx.db.webhookSubscription.findUniqueOrThrow({ where: { id } }));
}
