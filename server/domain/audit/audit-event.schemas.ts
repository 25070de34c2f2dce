import { z } from "zod";

export const auditActorKinds = ["user", "client", "license", "system"] as const;
export const auditSources = ["rest", "trpc", "cli"] as const;

/** One audit row (docs/decisions.md "Audit trail"); `changes` only for updates, secrets redacted. */
export const ZAuditEventResponse = z.object({
  id: z.string().uuid(),
  occurredAt: z.string(),
  actorKind: z.enum(auditActorKinds),
  actorId: z.string(),
  actorLabel: z.string().nullable(),
  source: z.enum(auditSources),
  operation: z.string(),
  action: z.string(),
  entityKind: z.string(),
  entityId: z.string(),
  correlationId: z.string().nullable(),
  changes: z
    .record(
      z.string(),
      z.object({
        from: z.unknown().optional(),
        to: z.unknown().optional(),
        redacted: z.literal(true).optional(),
      }),
    )
    .nullable(),
});
export type TAuditEventResponse = z.infer<typeof ZAuditEventResponse>;
