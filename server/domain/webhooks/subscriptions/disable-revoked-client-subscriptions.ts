import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { writeEnvelope } from "../events/emit-event.ts";
import { SUBSCRIPTION_STATE_CHANGED } from "../events/event-types.ts";
import type { TSubscriptionState } from "./subscription.schemas.ts";

/**
 * docs/security.md "Webhooks": when an integration's credential is revoked, its subscriptions stop
 * at once: each one not already Disabled becomes Disabled (a Suspended one stays Suspended and
 * resumes to Disabled), with `stateReason` and a `Webhooks.Subscription.StateChanged` event, in
 * the revocation's transaction. Its callback tokens fail from then on (isCallbackSubscriptionLive).
 */
export async function disableSubscriptionsOfRevokedClient(
  ctx: DomainContext,
  client: { id: string; clientId: string },
  at: Date,
): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const owned = await tx.webhookSubscription.findMany({
      where: { ownerClientId: client.id, createdVia: "integrator" },
      orderBy: { id: "asc" },
    });
    const reason = `Disabled because the integration's credential ${client.clientId} was revoked at ${at.toISOString()}.`;
    let disabled = 0;
    for (const s of owned) {
      const suspended = s.state === "Suspended";
      if (suspended ? s.resumeState === "Disabled" : s.state === "Disabled") continue;
      const next: { state: TSubscriptionState; resumeState: TSubscriptionState | null } = suspended
        ? { state: "Suspended", resumeState: "Disabled" }
        : { state: "Disabled", resumeState: null };
      await tx.webhookSubscription.updateMany({
        where: { id: s.id },
        data: { ...next, stateReason: reason, revisionNumber: { increment: 1 } },
      });
      await writeEnvelope(tx, {
        tenantId: ctx.tenantId,
        type: SUBSCRIPTION_STATE_CHANGED,
        entityKind: "subscription",
        entityId: s.id,
        subject: `subscriptions/${s.id}`,
        data: {
          subscriptionId: s.id,
          displayName: s.displayName,
          previousState: s.state,
          state: next.state,
          reason: "ClientRevoked",
          ownerClientId: client.clientId,
          changedAtUtc: at.toISOString(),
        },
      });
      disabled++;
    }
    return disabled;
  });
}
