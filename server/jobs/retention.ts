import type { Task } from "graphile-worker";
import { db as processDb, type Db } from "../db/client.ts";
import { now } from "../clock.ts";
import { retentionDays } from "../config.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionOptions = {
  /** Rows per DELETE: each statement is short and holds few row locks. */
  batchSize?: number;
  /** DELETEs per kind in one run: a large backlog is worked off over several runs, never in one. */
  maxBatches?: number;
  days?: ReturnType<typeof retentionDays>;
};

export type RetentionResult = {
  webhookEnvelopes: number;
  endedSessions: number;
  auditEvents: number;
  batches: number;
};

/** Runs `statement` until it deletes less than a full batch or `maxBatches` statements have run. */
async function inBatches(statement: () => Promise<number>, batchSize: number, maxBatches: number) {
  let deleted = 0;
  let batches = 0;
  while (batches < maxBatches) {
    batches++;
    const count = await statement();
    deleted += count;
    if (count < batchSize) break;
  }
  return { deleted, batches };
}

/**
 * The retention sweep (docs/security.md "Retention"), over every tenant (each statement deletes
 * rows by their own age; nothing joins two tenants):
 * - webhook envelopes older than the webhook period that are fanned out and have nothing pending or
 *   sending, with their deliveries and attempts (the foreign keys cascade);
 * - license sessions that ended (revokedAt) longer ago than the session period;
 * - audit rows older than the audit period.
 * Each kind runs at most `maxBatches` DELETEs of `batchSize` rows per run; rows another transaction
 * holds are skipped and taken by a later run.
 */
export async function sweepRetention(
  db: Pick<Db, "$executeRaw">,
  at: Date,
  options: RetentionOptions = {},
): Promise<RetentionResult> {
  const batchSize = options.batchSize ?? 1000;
  const maxBatches = options.maxBatches ?? 50;
  const days = options.days ?? retentionDays();
  const before = (d: number) => new Date(at.getTime() - d * DAY_MS);
  const webhookCutoff = before(days.webhooks);
  const sessionCutoff = before(days.endedSessions);
  const auditCutoff = before(days.audit);

  const envelopes = await inBatches(
    () => db.$executeRaw`
      DELETE FROM "WebhookEnvelope" WHERE id IN (
        SELECT e.id FROM "WebhookEnvelope" e
        WHERE e."createdAt" < ${webhookCutoff} AND e."fannedOutAt" IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d
                          WHERE d."envelopeId" = e.id AND d.status IN ('pending', 'sending'))
        ORDER BY e."createdAt" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    batchSize,
    maxBatches,
  );
  const sessions = await inBatches(
    () => db.$executeRaw`
      DELETE FROM "LicenseSession" WHERE id IN (
        SELECT id FROM "LicenseSession" WHERE "revokedAt" < ${sessionCutoff}
        ORDER BY "revokedAt" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    batchSize,
    maxBatches,
  );
  const audit = await inBatches(
    () => db.$executeRaw`
      DELETE FROM "AuditEvent" WHERE id IN (
        SELECT id FROM "AuditEvent" WHERE "occurredAt" < ${auditCutoff}
        ORDER BY "occurredAt" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`,
    batchSize,
    maxBatches,
  );
  return {
    webhookEnvelopes: envelopes.deleted,
    endedSessions: sessions.deleted,
    auditEvents: audit.deleted,
    batches: envelopes.batches + sessions.batches + audit.batches,
  };
}

/** Cron task (every 10 minutes, see server/worker.ts). */
export const retention_sweep: Task = async (_payload, helpers) => {
  const result = await sweepRetention(processDb(), now());
  if (result.webhookEnvelopes + result.endedSessions + result.auditEvents > 0)
    helpers.logger.info(
      `retention: ${result.webhookEnvelopes} envelope(s), ${result.endedSessions} ended session(s), ${result.auditEvents} audit row(s) deleted`,
    );
};
