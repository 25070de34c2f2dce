import { z } from "zod";

/** docs/api.md "Envelope": the CloudEvents 1.0 JSON every delivery carries. */
export const ZEnvelope = z.object({
  specversion: z.literal("1.0"),
  id: z.string(),
  source: z.string(),
  type: z.string(),
  time: z.string(),
  subject: z.string(),
  datacontenttype: z.literal("application/json"),
  tenantid: z.string(),
  entitykind: z.string(),
  entityid: z.string(),
  eventversion: z.number().int(),
  /** CloudEvents extension attribute naming the original envelope of a replay (our decision). */
  replayof: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});
export type Envelope = z.infer<typeof ZEnvelope>;

/** `urn:<vendor>:tenant:<tenant_id>` (docs/api.md); the vendor segment is this service's name. */
export const envelopeSource = (tenantId: string) => `urn:licensing:tenant:${tenantId}`;

export type EnvelopeFields = {
  id: string;
  tenantId: string;
  type: string;
  time: Date;
  subject: string;
  entityKind: string;
  entityId: string;
  eventVersion: number;
  replayOf?: string | null;
  data: Record<string, unknown>;
};

/** The envelope object, attributes in a fixed order so its serialization is stable. */
export function buildEnvelope(fields: EnvelopeFields): Envelope {
  return {
    specversion: "1.0",
    id: fields.id,
    source: envelopeSource(fields.tenantId),
    type: fields.type,
    time: fields.time.toISOString(),
    subject: fields.subject,
    datacontenttype: "application/json",
    tenantid: fields.tenantId,
    entitykind: fields.entityKind,
    entityid: fields.entityId,
    eventversion: fields.eventVersion,
    ...(fields.replayOf ? { replayof: fields.replayOf } : {}),
    data: fields.data,
  };
}

/** The exact bytes stored once and sent (and signed) by every attempt of every delivery. */
export const serializeEnvelope = (envelope: Envelope): string => JSON.stringify(envelope);

export const parseEnvelope = (payload: string): Envelope => JSON.parse(payload) as Envelope;
