import type { Db } from "../../db/client.ts";

/**
 * The platform's backlog, read at scrape time for `GET /api/metrics` (docs/operations.md): the
 * job queue (jobs due and not taken, the oldest one's wait), webhook deliveries by status and the
 * outbox envelopes not fanned out yet. Counts across every tenant: the endpoint is the operator's,
 * no tenant's rows leave it. Each statement reads an index (graphile-worker's run_at index,
 * WebhookDelivery (status, …), WebhookEnvelope (fannedOutAt, createdAt)).
 */
export type PlatformGauges = {
  jobsReady: number;
  jobsLocked: number;
  oldestReadyJobAgeSeconds: number;
  deliveriesByStatus: { status: string; count: number }[];
  outboxBacklog: number;
  oldestOutboxAgeSeconds: number;
};

export async function readPlatformGauges(db: Db): Promise<PlatformGauges> {
  const [[jobs], deliveries, [outbox]] = await Promise.all([
    db.$queryRaw<{ ready: number; locked: number; age: number | null }[]>`
      SELECT (count(*) FILTER (WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts))::int AS ready,
             (count(*) FILTER (WHERE locked_at IS NOT NULL))::int AS locked,
             extract(epoch FROM now() - min(run_at) FILTER (WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts))::float8 AS age
      FROM graphile_worker.jobs`,
    db.webhookDelivery.groupBy({ by: ["status"], _count: { _all: true } }),
    db.$queryRaw<{ backlog: number; age: number | null }[]>`
      SELECT count(*)::int AS backlog, extract(epoch FROM now() - min("createdAt"))::float8 AS age
      FROM "WebhookEnvelope" WHERE "fannedOutAt" IS NULL`,
  ]);
  return {
    jobsReady: jobs?.ready ?? 0,
    jobsLocked: jobs?.locked ?? 0,
    oldestReadyJobAgeSeconds: Math.max(0, jobs?.age ?? 0),
    deliveriesByStatus: deliveries.map((d) => ({ status: d.status, count: d._count._all })),
    outboxBacklog: outbox?.backlog ?? 0,
    oldestOutboxAgeSeconds: Math.max(0, outbox?.age ?? 0),
  };
}
