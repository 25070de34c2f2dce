import { enqueueJob, type RawQueryClient } from "../../jobs/enqueue.ts";

/**
 * Wakes a delivery up at `runAt` (now when absent). The delivery row is the source of truth; the
 * job only says "look at it": one job key per delivery keeps at most one waiting job, and a job
 * that finds nothing to do ends quietly.
 */
export function enqueueDelivery(tx: RawQueryClient, tenantId: string, deliveryId: string, runAt?: Date): Promise<string> {
  return enqueueJob(tx, "webhook_deliver", { tenantId, deliveryId }, { runAt, jobKey: `webhook_deliver:${deliveryId}`, maxAttempts: 10 });
}
