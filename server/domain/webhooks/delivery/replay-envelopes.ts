import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { prepareEnvelope, storeEnvelope } from "../events/emit-event.ts";
import { parseEnvelope } from "../events/envelope.ts";
import { REGISTRATION_CHALLENGE } from "../events/event-types.ts";
import {
  findSubscription,
  principalKey,
  type SubscriptionAccess,
} from "../subscriptions/subscription-access.ts";
import { takesDeliveries } from "../subscriptions/subscription-states.ts";
import type { TReplayRequest, TReplayResponse } from "../subscriptions/subscription.schemas.ts";

/** docs/api.md "Replay ceiling": 200 envelopes per hour per integration. */
export const REPLAY_CEILING = 200;
const REPLAY_WINDOW_MS = 60 * 60_000;

const invalidSelection = (detail: string) => new AppError("replay.invalid_selection", detail);

/**
 * docs/api.md replay: `envelopeIds` or a `from`/`to` window (never both, never neither), optionally
 * narrowed by `eventType` and `entityId`. Re-sends only envelopes that went to this subscription,
 * each as a fresh envelope (new id, the original's time and data) whose `replayof` extension
 * attribute names the original. A window skips envelopes that were replays themselves; a replayed
 * replay names the first original. The ceiling counts per caller in PostgreSQL, under a lock, so
 * parallel requests and several web processes share it; beyond it: 429 replay.rate_limited.
 */
export async function replayEnvelopes(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  input: TReplayRequest,
): Promise<TReplayResponse> {
  const subscription = await findSubscription(ctx, access, id);
  const byIds = input.envelopeIds != null;
  const byWindow = input.from != null || input.to != null;
  if (byIds === byWindow)
    throw invalidSelection(
      "Select envelopes by envelopeIds or by a from/to window: one of the two, not both.",
    );
  if (byWindow && (input.from == null || input.to == null))
    throw invalidSelection("A window needs both from and to.");
  if (byWindow && Date.parse(input.from!) > Date.parse(input.to!))
    throw invalidSelection("from must not be after to.");
  if (byIds && input.envelopeIds!.length === 0) throw invalidSelection("envelopeIds is empty.");
  if (!takesDeliveries(subscription.state)) {
    throw new AppError(
      "subscription.invalid_state",
      `Replay needs an Active subscription; this one is ${subscription.state}.`,
    );
  }

  const originals = await ctx.db.webhookEnvelope.findMany({
    where: {
      deliveries: { some: { subscriptionId: id } },
      type: input.eventType
        ? { equals: input.eventType, not: REGISTRATION_CHALLENGE }
        : { not: REGISTRATION_CHALLENGE },
      ...(input.entityId ? { entityId: input.entityId } : {}),
      ...(byIds
        ? { id: { in: input.envelopeIds! } }
        : { time: { gte: new Date(input.from!), lte: new Date(input.to!) }, replayOfId: null }),
    },
    orderBy: [{ time: "asc" }, { id: "asc" }],
    take: REPLAY_CEILING + 1,
  });
  if (originals.length > REPLAY_CEILING) {
    throw new AppError(
      "replay.rate_limited",
      `The selection holds more than ${REPLAY_CEILING} envelopes, the hourly replay ceiling; narrow it.`,
    );
  }
  if (originals.length === 0) return { replayedCount: 0, replays: [] };

  return inTransaction(ctx.db, async (tx) => {
    const key = principalKey(ctx);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`replay:${ctx.tenantId}:${key}`}, 11))`;
    const at = now();
    const since = new Date(at.getTime() - REPLAY_WINDOW_MS);
    const used = await tx.webhookReplayLedgerEntry.aggregate({
      where: { principalKey: key, createdAt: { gt: since } },
      _sum: { envelopeCount: true },
      _min: { createdAt: true },
    });
    const spent = used._sum.envelopeCount ?? 0;
    if (spent + originals.length > REPLAY_CEILING) {
      const retryAfter = used._min.createdAt
        ? Math.max(1, Math.ceil((used._min.createdAt.getTime() + REPLAY_WINDOW_MS - at.getTime()) / 1000))
        : 3600;
      throw new AppError(
        "replay.rate_limited",
        `Replaying ${originals.length} envelope(s) would exceed the ceiling of ${REPLAY_CEILING} per hour (${spent} used in the last hour).`,
        { headers: { "retry-after": String(retryAfter) } },
      );
    }
    await tx.webhookReplayLedgerEntry.create({
      data: { tenantId: ctx.tenantId, principalKey: key, envelopeCount: originals.length, createdAt: at },
    });

    const replays: TReplayResponse["replays"] = [];
    for (const original of originals) {
      const input = {
        tenantId: ctx.tenantId,
        type: original.type,
        entityKind: original.entityKind,
        entityId: original.entityId,
        subject: original.subject,
        data: parseEnvelope(original.payload).data,
        time: original.time,
        replayOfId: original.replayOfId ?? original.id,
        targetSubscriptionId: id,
        isTest: original.isTest,
      };
      const envelope = await storeEnvelope(tx, prepareEnvelope(input), input);
      replays.push({ originalEnvelopeId: original.id, envelopeId: envelope.id });
    }
    return { replayedCount: replays.length, replays };
  });
}
