import type { Db } from "../../db/client.ts";
import { joinable, tenantDb } from "../../db/tenant-db.ts";
import { enqueueJob } from "../../jobs/enqueue.ts";
import { enqueueDelivery } from "./delivery-jobs.ts";
import { retryDelayMs } from "./retry-schedule.ts";

/** A pending delivery this late has lost its job (it failed for good, or was removed): wake it again. */
const ORPHAN_AFTER_MS = 10 * 60_000;
const REPLAY_WINDOW_MS = 60 * 60_000;

export type SweepResult = { reclaimed: number; rewoken: number; refannedOut: number; ledgerPurged: number };

/**
 * The `webhook_sweep` cron job (every minute). "A worker killed mid-delivery loses nothing": an
 * attempt whose lease ended without a result is marked `interrupted` and its delivery becomes
 * pending again (or dead when that was its last attempt), with a job to send it now. Pending
 * deliveries whose job went missing get one again, and so do envelopes whose fan-out job failed for
 * good or went missing (fan-out is idempotent). Replay-ceiling entries older than an hour go.
 * Scans every tenant (maintenance, like the idempotency purge); each change is tenant-scoped.
 */
export async function sweepDeliveries(base: Db, at: Date, batchSize = 200): Promise<SweepResult> {
  const stuck = await base.$queryRaw<{ id: string; tenantId: string }[]>`
    SELECT id::text AS id, "tenantId"::text AS "tenantId" FROM "WebhookDelivery"
    WHERE status = 'sending' AND "leaseExpiresAt" < ${at}
    ORDER BY "leaseExpiresAt" LIMIT ${batchSize}`;
  let reclaimed = 0;
  for (const row of stuck) if (await reclaim(base, row.tenantId, row.id, at)) reclaimed++;

  const overdue = new Date(at.getTime() - ORPHAN_AFTER_MS);
  // A null nextAttemptAt means "due at once" (set when an attempt is reclaimed).
  const orphans = await base.$queryRaw<{ id: string; tenantId: string }[]>`
    SELECT id::text AS id, "tenantId"::text AS "tenantId" FROM "WebhookDelivery"
    WHERE status = 'pending' AND ("nextAttemptAt" < ${overdue} OR ("nextAttemptAt" IS NULL AND "updatedAt" < ${overdue}))
    ORDER BY "nextAttemptAt" NULLS FIRST LIMIT ${batchSize}`;
  for (const row of orphans) await enqueueDelivery(base, row.tenantId, row.id);

  const unfanned = await base.$queryRaw<{ id: string; tenantId: string }[]>`
    SELECT id::text AS id, "tenantId"::text AS "tenantId" FROM "WebhookEnvelope"
    WHERE "fannedOutAt" IS NULL AND "createdAt" < ${overdue}
    ORDER BY "createdAt" LIMIT ${batchSize}`;
  for (const row of unfanned) {
    await enqueueJob(base, "webhook_fan_out", { tenantId: row.tenantId, envelopeId: row.id }, { jobKey: `webhook_fan_out:${row.id}` });
  }

  const ledgerPurged = await base.$executeRaw`
    DELETE FROM "WebhookReplayLedgerEntry" WHERE "createdAt" < ${new Date(at.getTime() - REPLAY_WINDOW_MS)}`;
  return { reclaimed, rewoken: orphans.length, refannedOut: unfanned.length, ledgerPurged };
}

async function reclaim(base: Db, tenantId: string, deliveryId: string, at: Date): Promise<boolean> {
  return tenantDb(base, tenantId).$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
    const delivery = await tx.webhookDelivery.findUnique({ where: { id: deliveryId } });
    if (!delivery || delivery.status !== "sending" || !delivery.leaseExpiresAt || delivery.leaseExpiresAt >= at) return false;
    const error = "Interrupted: the worker stopped during this attempt; the receiver may or may not have received it.";
    await tx.webhookDeliveryAttempt.updateMany({
      where: { deliveryId, status: "sending" },
      data: { status: "interrupted", finishedAt: at, error },
    });
    const dead = retryDelayMs(delivery.attemptCount - delivery.scheduleOffset) === null;
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: "sending", attemptCount: delivery.attemptCount },
      // nextAttemptAt null: due at once, whatever the clock of the worker that picks it up.
      data: dead
        ? { status: "dead", leaseExpiresAt: null, completedAt: at, lastError: error }
        : { status: "pending", leaseExpiresAt: null, nextAttemptAt: null, lastError: error },
    });
    if (count === 1 && !dead) await enqueueDelivery(tx, tenantId, deliveryId);
    return count === 1;
  });
}
