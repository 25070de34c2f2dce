import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { prepareEnvelope, storeEnvelope, type EnvelopeWriteInput } from "../events/emit-event.ts";
import type { Envelope } from "../events/envelope.ts";
import { ALL_EVENT_TYPES } from "./event-type-patterns.ts";
import { findEventType, subscribableEventTypes } from "../events/event-types.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";
import { spendOnDemandSend } from "./on-demand-send-limit.ts";
import { takesDeliveries } from "./subscription-states.ts";

type SubscriptionRow = Awaited<ReturnType<typeof findSubscription>>;

/**
 * docs/api.md "Subscriptions": the sample event of a type (fixed placeholder ids) with `_test: true` in its
 * data, covered by the signature. Without `eventType`, the subscription's first exact type (or
 * the registry's first under `*`). Any subscribable type may be test-fired: test events are aimed
 * at the subscription and skip its patterns and filters (they exist to exercise the receiver).
 */
function testEnvelopeInput(
  tenantId: string,
  subscription: SubscriptionRow,
  eventType: string | null | undefined,
): EnvelopeWriteInput {
  const type =
    eventType ||
    subscription.eventTypePatterns.find((p) => p !== ALL_EVENT_TYPES) ||
    subscribableEventTypes[0].type;
  const definition = findEventType(type);
  if (!definition?.subscribable) {
    throw new AppError(
      "subscription.invalid_event_type",
      `"${type}" is not an event type that can be test-fired (see GET /api/v1/webhooks/schemas).`,
    );
  }
  return {
    tenantId,
    type,
    entityKind: definition.entityKind,
    entityId: definition.sample.entityId,
    subject: definition.sample.subject,
    data: { ...definition.sample.data, _test: true },
    targetSubscriptionId: subscription.id,
    isTest: true,
  };
}

/**
 * Sends one sample event through the full pipeline (outbox, fan-out, delivery or capture); 202.
 * Counts against the subscription's on-demand sends per minute (429 beyond).
 */
export async function testFire(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  eventType?: string | null,
) {
  const subscription = await findSubscription(ctx, access, id);
  if (!takesDeliveries(subscription.state)) {
    throw new AppError(
      "subscription.invalid_state",
      `Test-fire needs an Active subscription; this one is ${subscription.state}.`,
    );
  }
  const input = testEnvelopeInput(ctx.tenantId, subscription, eventType);
  const envelope = await inTransaction(ctx.db, async (tx) => {
    await spendOnDemandSend({ ...ctx, db: tx }, subscription.id);
    return storeEnvelope(tx, prepareEnvelope(input), input);
  });
  return { envelopeId: envelope.id, eventType: envelope.type };
}

/**
 * The exact envelope a test-fire would send, in any state; enqueues nothing. Only `id` and `time`
 * differ from the real send, since each test-fire is a new event.
 */
export async function previewTestFire(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
  eventType?: string | null,
): Promise<Envelope> {
  const subscription = await findSubscription(ctx, access, id);
  return prepareEnvelope(testEnvelopeInput(ctx.tenantId, subscription, eventType));
}
