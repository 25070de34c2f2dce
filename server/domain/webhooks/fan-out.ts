import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { joinable, tenantDb } from "../../db/tenant-db.ts";
import { now } from "../../clock.ts";
import { enqueueDeliveries } from "./delivery-jobs.ts";
import { parseEnvelope } from "./envelope.ts";
import { patternsMatch } from "./event-type-patterns.ts";
import { filtersMatch } from "./subscription-filters.ts";
import type { TSubscriptionFilters } from "./subscription.schemas.ts";

/**
 * The `webhook_fan_out` job: one delivery per (envelope, matching Active subscription), created
 * idempotently (unique per envelope and subscription) together with each delivery's job, in one
 * transaction, so a re-run creates nothing twice. An envelope aimed at one subscription (test-fire,
 * replay) skips pattern and filter matching. Capture subscriptions record the event as `captured`.
 * Only subscriptions that existed when the event happened receive it.
 */
export async function fanOutEnvelope(base: Db, tenantId: string, envelopeId: string, at: Date = now()): Promise<number> {
  const db = tenantDb(base, tenantId);
  return db.$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
    const envelope = await tx.webhookEnvelope.findUnique({ where: { id: envelopeId } });
    if (!envelope) return 0;
    const candidates = await tx.webhookSubscription.findMany({
      where: envelope.targetSubscriptionId
        ? { id: envelope.targetSubscriptionId, state: "Active" }
        : { state: "Active", createdAt: { lte: envelope.createdAt } },
    });
    await tx.webhookEnvelope.update({ where: { id: envelopeId }, data: { fannedOutAt: at } });
    const parsed = parseEnvelope(envelope.payload);
    // Ordered by id: concurrent fan-outs take their subscription key locks in one order.
    const matching = (
      envelope.targetSubscriptionId
        ? candidates
        : candidates.filter((s) => patternsMatch(s.eventTypePatterns, envelope.type) && filtersMatch(s.filters as TSubscriptionFilters | null, parsed))
    ).sort((a, b) => a.id.localeCompare(b.id));
    if (matching.length === 0) return 0;
    const created = await tx.webhookDelivery.createManyAndReturn({
      data: matching.map((s) => {
        const captured = s.targetKind === "Capture";
        return {
          id: randomUUID(),
          tenantId,
          envelopeId,
          subscriptionId: s.id,
          eventType: envelope.type,
          entityId: envelope.entityId,
          status: captured ? "captured" : "pending",
          nextAttemptAt: captured ? null : at,
          completedAt: captured ? at : null,
          createdAt: at,
        };
      }),
      skipDuplicates: true,
      select: { id: true, status: true },
    });
    await enqueueDeliveries(tx, tenantId, created.filter((d) => d.status === "pending").map((d) => d.id));
    return created.length;
  });
}
