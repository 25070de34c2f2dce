import type { Db } from "../../../db/client.ts";
import { joinable, tenantDb } from "../../../db/tenant-db.ts";
import { dispatchEnvelopes } from "../events/fan-out.ts";
import { retryDelayMs } from "./retry-schedule.ts";

/** Left this long, a pending delivery without a time or an envelope without fan-out is the sweeper's. */
const ORPHAN_AFTER_MS = 10 * 60_000;
const REPLAY_WINDOW_MS = 60 * 60_000;

export type SweepResult = { reclaimed: number; rewoken: number; refannedOut: number; ledgerPurged: number };

/**
 * The `webhook_sweep` cron job (every minute), over every tenant; each change is tenant-scoped.
 * "A worker killed mid-delivery loses nothing": an attempt whose lease ended without a result is
 * marked `interrupted` and its delivery becomes pending again, due at once (or dead when that was
 * its last attempt). A pending delivery with no attempt time (which the pump does not see) gets
 * one. Envelopes left 10 minutes without fan-out (no dispatcher draining, or a dispatcher that
 * failed on them) are fanned out here: the safety net under the dispatcher. Replay-ceiling and
 * on-demand-send ledger entries older than an hour go.
 */
export async function sweepDeliveries(base: Db, at: Date, batchSize = 200): Promise<SweepResult> {
  const stuck = await base.$queryRaw<{ id: string; tenantId: string }[]>`
    SELECT id::text AS id, "tenantId"::text AS "tenantId" FROM "WebhookDelivery"
    WHERE status = 'sending' AND "leaseExpiresAt" < ${at}
    ORDER BY "leaseExpiresAt" LIMIT ${batchSize}`;
  let reclaimed = 0;
  for (const row of stuck) if (await reclaim(base, row.tenantId, row.id, at)) reclaimed++;

  const overdue = new Date(at.getTime() - ORPHAN_AFTER_MS);
  const rewoken = await base.$executeRaw`
    UPDATE "WebhookDelivery" SET "nextAttemptAt" = "updatedAt"
    WHERE id IN (
      SELECT id FROM "WebhookDelivery"
      WHERE status = 'pending' AND "nextAttemptAt" IS NULL AND "updatedAt" < ${overdue}
      LIMIT ${batchSize})`;

  const { envelopes: refannedOut } = await dispatchEnvelopes(base, { batchSize, createdBefore: overdue });

  const ledgerPurged = await base.$executeRaw`
    DELETE FROM "WebhookReplayLedgerEntry" WHERE "createdAt" < ${new Date(at.getTime() - REPLAY_WINDOW_MS)}`;
  return { reclaimed, rewoken, refannedOut, ledgerPurged };
}

async function reclaim(base: Db, tenantId: string, deliveryId: string, at: Date): Promise<boolean> {
  return tenantDb(base, tenantId).$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
    const delivery = await tx.webhookDelivery.findUnique({ where: { id: deliveryId } });
    if (
      !delivery ||
      delivery.status !== "sending" ||
      !delivery.leaseExpiresAt ||
      delivery.leaseExpiresAt >= at
    )
      return false;
    const error =
      "Interrupted: the worker stopped during this attempt; the receiver may or may not have received it.";
    await tx.webhookDeliveryAttempt.updateMany({
      where: { deliveryId, status: "sending" },
      data: { status: "interrupted", finishedAt: at, error },
    });
    const dead = retryDelayMs(delivery.attemptCount - delivery.scheduleOffset) === null;
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: "sending", attemptCount: delivery.attemptCount },
      // Due since the lost attempt began: due at once whatever the clock of the worker that takes it.
      data: dead
        ? { status: "dead", leaseExpiresAt: null, completedAt: at, lastError: error }
        : {
            status: "pending",
            leaseExpiresAt: null,
            nextAttemptAt: delivery.lastAttemptAt ?? delivery.createdAt,
            lastError: error,
          },
    });
    return count === 1;
  });
}
