import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";
import { toSubscriptionResponse } from "./subscription-response.ts";
import { transition, type SubscriptionTrigger } from "./subscription-states.ts";
import type { TSubscriptionState } from "./subscription.schemas.ts";

/** Moves a subscription by one trigger of the state table; the update applies only to the state it was read in. */
export async function applySubscriptionTrigger(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  trigger: SubscriptionTrigger,
) {
  const current = await findSubscription(ctx, access, id);
  const next = transition(
    {
      state: current.state as TSubscriptionState,
      resumeState: current.resumeState as TSubscriptionState | null,
    },
    trigger,
  );
  if (next.state !== current.state || next.resumeState !== current.resumeState) {
    const { count } = await ctx.db.webhookSubscription.updateMany({
      where: { id, state: current.state },
      data: {
        state: next.state,
        resumeState: next.resumeState,
        stateReason: null,
        revisionNumber: { increment: 1 },
      },
    });
    if (count === 0)
      throw new AppError(
        "concurrency.revision_mismatch",
        "The subscription changed state meanwhile; reload it and try again.",
      );
  }
  return toSubscriptionResponse(await ctx.db.webhookSubscription.findUniqueOrThrow({ where: { id } }));
}
