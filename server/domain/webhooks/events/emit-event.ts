import { randomUUID } from "node:crypto";
import { inTransaction, type TenantDbOrTx, type TenantTx } from "../../../db/tenant-db.ts";
import { Prisma } from "../../../db/generated/client.ts";
import { now } from "../../../clock.ts";
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
   * one envelope and its id (docs/api.md: "the same change sent twice keeps its id").
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
 * docs/architecture.md section 7, the transactional outbox: writes the CloudEvents envelope in the caller's
 * transaction, so an event exists exactly when its change commits. Nothing else: no job and no
 * notify per event; the worker's dispatcher drains envelopes not yet fanned out (fan-out.ts).
 * Call it right where the state changes, with the change's transaction.
 */
export async function emitEvent(db: TenantDbOrTx, input: EmitEventInput): Promise<Envelope> {
  return inTransaction(db, (tx) => writeEnvelope(tx, input));
}

/** An event written through the outbox CTE: no `changeKey` (see outboxCte). */
export type OutboxEventInput = Omit<EmitEventInput, "changeKey">;

/**
 * The outbox write of several events as a CTE, `outbox_envelopes`, for a caller's own statement:
 * the hot runtime paths write their change and its events in one round trip. No `changeKey` here:
 * events that need the duplicate check go through emitEvent. `outbox_jobs` is an empty CTE kept
 * only so statements written when fan-out was a job per event still read (no job is added now).
 */
export function outboxCte(inputs: OutboxEventInput[]): { sql: Prisma.Sql; envelopes: Envelope[] } {
  const envelopes = inputs.map((input) => prepareEnvelope(input));
  const rows = envelopes.map((e, i) => ({
    id: e.id,
    tenantId: inputs[i].tenantId,
    type: e.type,
    subject: e.subject,
    entityKind: e.entitykind,
    entityId: e.entityid,
    eventVersion: e.eventversion,
    time: e.time,
    payload: serializeEnvelope(e),
  }));
  const sql = Prisma.sql`outbox_envelopes AS (
      INSERT INTO "WebhookEnvelope" (id, "tenantId", type, subject, "entityKind", "entityId", "eventVersion", time, payload, "isTest", "createdAt")
      SELECT x.id, x."tenantId", x.type, x.subject, x."entityKind", x."entityId", x."eventVersion", x.time, x.payload, false, ${now()}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(id uuid, "tenantId" uuid, type text, subject text, "entityKind" text, "entityId" text, "eventVersion" int, time timestamptz, payload text)),
    outbox_jobs AS (SELECT 1 WHERE false)`;
  return { sql, envelopes };
}

/**
 * The outbox write for a `pg` statement of the runtime lane (docs/architecture.md section 11): a CTE,
 * `outbox_envelopes`, reading its rows from the JSON parameter `$param` (`outboxRows`; `[]` writes
 * nothing), so one constant statement text serves a write with events and one without.
 */
export const outboxCteText = (param: number) => `outbox_envelopes AS (
  INSERT INTO "WebhookEnvelope" (id, "tenantId", type, subject, "entityKind", "entityId", "eventVersion", time, payload, "isTest", "createdAt")
  SELECT x.id, x."tenantId", x.type, x.subject, x."entityKind", x."entityId", x."eventVersion", x.time, x.payload, false, x.time
  FROM jsonb_to_recordset($${param}::jsonb)
    AS x(id uuid, "tenantId" uuid, type text, subject text, "entityKind" text, "entityId" text, "eventVersion" int, time timestamptz, payload text))`;

/** The parameter of outboxCteText: the envelopes of `inputs`, validated and serialized. */
export function outboxRows(inputs: OutboxEventInput[]): string {
  if (inputs.length === 0) return "[]";
  return JSON.stringify(
    inputs.map((input) => {
      const e = prepareEnvelope(input);
      return {
        id: e.id,
        tenantId: input.tenantId,
        type: e.type,
        subject: e.subject,
        entityKind: e.entitykind,
        entityId: e.entityid,
        eventVersion: e.eventversion,
        time: e.time,
        payload: serializeEnvelope(e),
      };
    }),
  );
}

/** Several events of one change in one round trip. */
export async function emitEvents(tx: TenantTx, inputs: OutboxEventInput[]): Promise<Envelope[]> {
  const { sql, envelopes } = outboxCte(inputs);
  await tx.$executeRaw`WITH ${sql} SELECT 1`;
  return envelopes;
}

/** emitEvent plus the targeting used by test-fire, replay and verification. */
export async function writeEnvelope(tx: TenantTx, input: EnvelopeWriteInput): Promise<Envelope> {
  return storeEnvelope(tx, prepareEnvelope(input), input);
}

/** Validates the data against the registry and builds the envelope (a fresh id; time now unless given). */
export function prepareEnvelope(input: EnvelopeWriteInput): Envelope {
  const definition = findEventType(input.type);
  if (!definition)
    throw new Error(
      `Unknown event type ${input.type}: add it to server/domain/webhooks/events/event-types.ts.`,
    );
  if (definition.entityKind !== input.entityKind)
    throw new Error(`${input.type} is about entity kind ${definition.entityKind}, not ${input.entityKind}.`);
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
    // docs/api.md: data is non-strict, so the caller's object goes out as given (validated above).
    data: input.data,
  });
}

/** Writes a prepared envelope (its exact bytes); unless `fanOut` is false the dispatcher fans it out. */
export async function storeEnvelope(
  tx: TenantTx,
  envelope: Envelope,
  input: Omit<EnvelopeWriteInput, "data" | "type" | "subject" | "entityId" | "entityKind">,
): Promise<Envelope> {
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
    // The same change was emitted before: its envelope already exists.
    const existing = await tx.webhookEnvelope.findFirstOrThrow({ where: { changeKey: input.changeKey } });
    return parseEnvelope(existing.payload);
  }
  return envelope;
}
