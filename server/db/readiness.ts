import type { Db } from "./client.ts";
import { pendingMigrations } from "./migrate.ts";
import { now } from "../clock.ts";

export const WORKER_HEARTBEAT_MAX_AGE_MS = 60_000;

export type Readiness = {
  ready: boolean;
  checks: {
    database: boolean;
    migrations: { pending: string[] };
    worker: { lastSeenAt: string | null; fresh: boolean };
  };
};

/** docs/architecture.md section 10: database reachable, migrations applied, a worker heartbeat fresh. */
export async function readiness(db: Db): Promise<Readiness> {
  try {
    const pending = await pendingMigrations((sql) => db.$queryRawUnsafe(sql));
    const beat = await db.workerHeartbeat.findFirst({ orderBy: { lastSeenAt: "desc" } });
    const fresh = !!beat && now().getTime() - beat.lastSeenAt.getTime() < WORKER_HEARTBEAT_MAX_AGE_MS;
    return {
      ready: pending.length === 0 && fresh,
      checks: {
        database: true,
        migrations: { pending },
        worker: { lastSeenAt: beat?.lastSeenAt.toISOString() ?? null, fresh },
      },
    };
  } catch {
    return {
      ready: false,
      checks: { database: false, migrations: { pending: [] }, worker: { lastSeenAt: null, fresh: false } },
    };
  }
}
