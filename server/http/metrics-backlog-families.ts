import { db } from "../db/client.ts";
import { pgPool } from "../db/pool.ts";
import { readPlatformGauges } from "../domain/cross-tenant.ts";
import type { Family } from "./metrics-exposition.ts";

/** The families read at scrape time: the database pool, the job queue, webhook deliveries. */
export async function backlogFamilies(): Promise<Family[]> {
  const pool = pgPool();
  const g = await readPlatformGauges(db());
  return [
    {
      name: "licensing_db_pool_connections",
      help: "Connections of the web process's PostgreSQL pool, by state.",
      type: "gauge",
      samples: [
        { labels: { state: "total" }, value: pool.totalCount },
        { labels: { state: "idle" }, value: pool.idleCount },
        { labels: { state: "in_use" }, value: pool.totalCount - pool.idleCount },
        { labels: { state: "waiting" }, value: pool.waitingCount },
      ],
    },
    {
      name: "licensing_db_pool_max_connections",
      help: "The pool's connection limit.",
      type: "gauge",
      samples: [{ value: pool.options.max ?? 10 }],
    },
    {
      name: "licensing_job_queue_depth",
      help: "Worker jobs by state: ready (due, not taken) and locked (running).",
      type: "gauge",
      samples: [
        { labels: { state: "ready" }, value: g.jobsReady },
        { labels: { state: "locked" }, value: g.jobsLocked },
      ],
    },
    {
      name: "licensing_job_queue_oldest_ready_age_seconds",
      help: "How long the oldest due job has waited for a worker (0 when none waits).",
      type: "gauge",
      samples: [{ value: g.oldestReadyJobAgeSeconds }],
    },
    {
      name: "licensing_webhook_deliveries",
      help: "Webhook deliveries kept (retention window), by status: succeeded, pending, sending, dead, captured.",
      type: "gauge",
      samples: g.deliveriesByStatus.map((d) => ({ labels: { status: d.status }, value: d.count })),
    },
    {
      name: "licensing_webhook_outbox_backlog",
      help: "Event envelopes not yet fanned out to subscriptions.",
      type: "gauge",
      samples: [{ value: g.outboxBacklog }],
    },
    {
      name: "licensing_webhook_outbox_oldest_age_seconds",
      help: "Age of the oldest envelope not yet fanned out (0 when none).",
      type: "gauge",
      samples: [{ value: g.oldestOutboxAgeSeconds }],
    },
  ];
}
