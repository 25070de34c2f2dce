import { randomUUID } from "node:crypto";
import { inTransaction, type TenantDbOrTx, type TenantTx } from "../../db/tenant-db.ts";
import { enqueueJob } from "../../jobs/enqueue.ts";
import type { TaskIdentifier } from "../../jobs/index.ts";
import { Prisma } from "../../db/generated/client.ts";
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

/** An event written through the outbox CTE: no `changeKey` (see outboxCte). */
export type OutboxEventInput = Omit<EmitEventInput, "changeKey">;

/**
 * The outbox write of several events as two CTEs, `outbox_envelopes` and `outbox_jobs`, for a
 * caller's own statement: the hot runtime paths write their change and its events in one round
 * trip. The caller's statement must read `outbox_jobs` (a plain SELECT CTE runs only when read).
 * No `changeKey` here: events that need the duplicate check go through emitEvent.
 */
export function outboxCte(inputs: OutboxEventInput[]): { sql: Prisma.Sql; envelopes: Envelope[] } {
  const envelopes = inputs.map((input) => prepareEnvelope(input));
  const rows = envelopes.map((e, i) => ({
    id: e.id, tenantId: inputs[i].tenantId, type: e.type, subject: e.subject, entityKind: e.entitykind, entityId: e.entityid,
    eventVersion: e.eventversion, time: e.time, payload: serializeEnvelope(e),
  }));
  const jobs = envelopes.map((e, i) => ({ identifier: "webhook_fan_out" satisfies TaskIdentifier, payload: { tenantId: inputs[i].tenantId, envelopeId: e.id } }));
  const sql = Prisma.sql`outbox_envelopes AS (
      INSERT INTO "WebhookEnvelope" (id, "tenantId", type, subject, "entityKind", "entityId", "eventVersion", time, payload, "isTest", "createdAt")
      SELECT x.id, x."tenantId", x.type, x.subject, x."entityKind", x."entityId", x."eventVersion", x.time, x.payload, false, ${now()}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(id uuid, "tenantId" uuid, type text, subject text, "entityKind" text, "entityId" text, "eventVersion" int, time timestamptz, payload text)),
    outbox_jobs AS (
      SELECT 1 FROM graphile_worker.add_jobs(array(SELECT json_populate_recordset(null::graphile_worker.job_spec, ${JSON.stringify(jobs)}::json)), false))`;
  return { sql, envelopes };
}

/** Several events of one change in one round trip (envelopes and their fan-out jobs). */
export async function emitEvents(tx: TenantTx, inputs: OutboxEventInput[]): Promise<Envelope[]> {
  const { sql, envelopes } = outboxCte(inputs);
  await tx.$queryRaw`WITH ${sql} SELECT count(*)::int AS jobs FROM outbox_jobs`;
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
