import { randomUUID } from "node:crypto";
import { inTransaction, type TenantDbOrTx, type TenantTx } from "../../db/tenant-db.ts";
import { enqueueJob, enqueueJobs } from "../../jobs/enqueue.ts";
import { now } from "../../clock.ts";
import { buildEnvelope, parseEnvelope, serializeEnvelope, type Envelope } from "./envelope.ts";
import { findEventType } from "./event-types.ts";

export type EmitEventInput = {
  tenantId: string;
  type: string;
  entityKind: string;
  entityId: string;
  subject: string;
  data: Record<string, unknown>;
  /**
   * Optional key of the change: emitting the same change twice (a retried request, say) keeps the
   * one envelope and its id (SPEC.md: "the same change sent twice keeps its id").
   */
  changeKey?: string;
};

export type EnvelopeWriteInput = EmitEventInput & {
  /** Test-fires, replays and challenges go to this subscription only. */
  targetSubscriptionId?: string;
  replayOfId?: string;
  isTest?: boolean;
  /** A replay keeps its original's time (the occurrence); everything else happens now. */
  time?: Date;
  /** False for the registration challenge, which verification sends itself. */
  fanOut?: boolean;
};

/**
 * DESIGN.md section 7, the transactional outbox: writes the CloudEvents envelope in the caller's
 * transaction and enqueues its fan-out in that same transaction, so an event exists exactly when
 * its change commits. Call it right where the state changes, with the change's transaction.
 */
export async function emitEvent(db: TenantDbOrTx, input: EmitEventInput): Promise<Envelope> {
  return inTransaction(db, (tx) => writeEnvelope(tx, input));
}

/**
 * Several events of one change, written with one insert and their fan-outs enqueued with one
 * call: the hot runtime paths (an activation emits two) save round trips. Events with a
 * `changeKey` go through emitEvent one by one (they need the duplicate check).
 */
export async function emitEvents(tx: TenantTx, inputs: EmitEventInput[]): Promise<Envelope[]> {
  if (inputs.some((i) => i.changeKey)) return Promise.all(inputs.map((i) => emitEvent(tx, i)));
  const envelopes = inputs.map((input) => prepareEnvelope(input));
  const at = now();
  await tx.webhookEnvelope.createMany({
    data: envelopes.map((envelope, i) => ({
      id: envelope.id,
      tenantId: inputs[i].tenantId,
      type: envelope.type,
      subject: envelope.subject,
      entityKind: envelope.entitykind,
      entityId: envelope.entityid,
      eventVersion: envelope.eventversion,
      time: new Date(envelope.time),
      payload: serializeEnvelope(envelope),
      changeKey: null,
      replayOfId: null,
      targetSubscriptionId: null,
      isTest: false,
      createdAt: at,
      fannedOutAt: null,
    })),
  });
  await enqueueJobs(tx, envelopes.map((envelope, i) => ({ taskIdentifier: "webhook_fan_out", payload: { tenantId: inputs[i].tenantId, envelopeId: envelope.id } })));
  return envelopes;
}

/** emitEvent plus the targeting used by test-fire, replay and verification. */
export async function writeEnvelope(tx: TenantTx, input: EnvelopeWriteInput): Promise<Envelope> {
  return storeEnvelope(tx, prepareEnvelope(input), input);
}

/** Validates the data against the registry and builds the envelope (a fresh id; time now unless given). */
export function prepareEnvelope(input: EnvelopeWriteInput): Envelope {
  const definition = findEventType(input.type);
  if (!definition) throw new Error(`Unknown event type ${input.type}: add it to server/domain/webhooks/event-types.ts.`);
  if (definition.entityKind !== input.entityKind) throw new Error(`${input.type} is about entity kind ${definition.entityKind}, not ${input.entityKind}.`);
  const parsed = definition.dataSchema.safeParse(input.data);
  if (!parsed.success) throw new Error(`Invalid data for ${input.type}: ${parsed.error.message}`);
  return buildEnvelope({
    id: randomUUID(),
    tenantId: input.tenantId,
    type: input.type,
    time: input.time ?? now(),
    subject: input.subject,
    entityKind: input.entityKind,
    entityId: input.entityId,
    eventVersion: definition.eventVersion,
    replayOf: input.replayOfId,
    // SPEC.md: data is non-strict, so the caller's object goes out as given (validated above).
    data: input.data,
  });
}

/** Writes a prepared envelope (its exact bytes) and, unless `fanOut` is false, enqueues its fan-out. */
export async function storeEnvelope(tx: TenantTx, envelope: Envelope, input: Omit<EnvelopeWriteInput, "data" | "type" | "subject" | "entityId" | "entityKind">): Promise<Envelope> {
  const { count } = await tx.webhookEnvelope.createMany({
    data: [
      {
        id: envelope.id,
        tenantId: input.tenantId,
        type: envelope.type,
        subject: envelope.subject,
        entityKind: envelope.entitykind,
        entityId: envelope.entityid,
        eventVersion: envelope.eventversion,
        time: new Date(envelope.time),
        payload: serializeEnvelope(envelope),
        changeKey: input.changeKey ?? null,
        replayOfId: input.replayOfId ?? null,
        targetSubscriptionId: input.targetSubscriptionId ?? null,
        isTest: input.isTest ?? false,
        createdAt: now(),
        // A one-subscription send (fanOut: false) has no fan-out to wait for.
        fannedOutAt: input.fanOut === false ? now() : null,
      },
    ],
    skipDuplicates: true,
  });
  if (count === 0) {
    // The same change was emitted before: its envelope (and fan-out) already exist.
    const existing = await tx.webhookEnvelope.findFirstOrThrow({ where: { changeKey: input.changeKey } });
    return parseEnvelope(existing.payload);
  }
  if (input.fanOut !== false) await enqueueJob(tx, "webhook_fan_out", { tenantId: input.tenantId, envelopeId: envelope.id });
  return envelope;
}
