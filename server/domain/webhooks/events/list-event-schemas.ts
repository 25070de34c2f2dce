import { z } from "zod";
import { pageEnvelope } from "../../../core/pagination.ts";
import { buildEnvelope, ZEnvelope } from "./envelope.ts";
import { eventTypes, placeholder } from "./event-types.ts";

export const ZEventTypeSchema = z.object({
  type: z.string(),
  emittedWhen: z.string(),
  entityKind: z.string(),
  eventVersion: z.number().int(),
  /** False for the registration challenge: sent by verification, never subscribable. */
  subscribable: z.boolean(),
  /** The paths `filters.attributeEquality` may name for this type. */
  fieldPaths: z.array(z.string()),
  /** JSON Schema (draft 2020-12) of `data`; unknown fields may appear and are to be ignored. */
  dataSchema: z.record(z.string(), z.unknown()),
  /** A complete sample envelope with fixed placeholder ids. */
  sample: ZEnvelope,
});
export type TEventTypeSchema = z.infer<typeof ZEventTypeSchema>;

export const ZEventSchemasQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  /** Every event type fits one page by default. */
  pageSize: z.coerce
    .number()
    .int()
    .min(0)
    .default(100)
    .transform((n) => Math.min(n, 100)),
});

let documents: TEventTypeSchema[] | undefined;

/** `GET /api/v1/webhooks/schemas` (anonymous): every event type the platform emits. */
export function listEventSchemas(query: z.infer<typeof ZEventSchemasQuery>) {
  documents ??= eventTypes.map((t) => {
    const { $schema: _ignored, ...dataSchema } = z.toJSONSchema(t.dataSchema, {
      io: "output",
      target: "draft-2020-12",
    }) as Record<string, unknown>;
    return {
      type: t.type,
      emittedWhen: t.emittedWhen,
      entityKind: t.entityKind,
      eventVersion: t.eventVersion,
      subscribable: t.subscribable,
      fieldPaths: [...t.fieldPaths],
      dataSchema,
      sample: buildEnvelope({
        id: placeholder.envelope,
        tenantId: placeholder.tenant,
        type: t.type,
        time: new Date("2026-01-01T12:00:00.000Z"),
        subject: t.sample.subject,
        entityKind: t.entityKind,
        entityId: t.sample.entityId,
        eventVersion: t.eventVersion,
        data: t.sample.data,
      }),
    };
  });
  const start = (query.pageNumber - 1) * query.pageSize;
  return pageEnvelope(documents.slice(start, start + query.pageSize), query, documents.length);
}
