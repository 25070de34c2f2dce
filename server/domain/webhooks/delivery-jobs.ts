import { enqueueJob, type RawQueryClient } from "../../jobs/enqueue.ts";

const MAX_JOB_ATTEMPTS = 10;
const jobKey = (deliveryId: string) => `webhook_deliver:${deliveryId}`;

/**
 * Wakes a delivery up at `runAt` (now when absent). The delivery row is the source of truth; the
 * job only says "look at it": one job key per delivery keeps at most one waiting job, and a job
 * that finds nothing to do ends quietly.
 */
export function enqueueDelivery(tx: RawQueryClient, tenantId: string, deliveryId: string, runAt?: Date): Promise<string> {
  return enqueueJob(tx, "webhook_deliver", { tenantId, deliveryId }, { runAt, jobKey: jobKey(deliveryId), maxAttempts: MAX_JOB_ATTEMPTS });
}

/** The same for many deliveries of a fan-out, in one statement (graphile-worker's add_jobs). */
export async function enqueueDeliveries(tx: RawQueryClient, tenantId: string, deliveryIds: readonly string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await tx.$queryRaw`
    SELECT count(*) FROM graphile_worker.add_jobs((
      SELECT array_agg(ROW(
        'webhook_deliver', json_build_object('tenantId', ${tenantId}::text, 'deliveryId', id::text), NULL, NULL,
        ${MAX_JOB_ATTEMPTS}::int, 'webhook_deliver:' || id::text, NULL, NULL
      )::graphile_worker.job_spec)
      FROM unnest(${[...deliveryIds]}::uuid[]) AS id
    ))`;
}
