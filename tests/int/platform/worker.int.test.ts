import { randomUUID } from "node:crypto";
import { Logger, makeWorkerUtils, quickAddJob, runOnce, type WorkerUtils } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/server/db/client.ts";
import { tenantDb } from "@/server/db/tenant-db.ts";
import { enqueueJob } from "@/server/db/job-queue.ts";
import { taskList } from "@/server/jobs/index.ts";
import { purgeExpiredIdempotency } from "@/server/jobs/purge-expired-idempotency.ts";
import { testDatabaseUrl, useProcessDatabase } from "../../helpers/db.ts";

const hour = 60 * 60 * 1000;
const quiet = new Logger(() => () => {});

let url: string;
let prisma: Db;
let utils: WorkerUtils;
let tenantId: string;
let restoreProcessDatabase: (() => Promise<void>) | undefined;

/** An idempotency record written directly: an expired one is a state only its lifetime's passing produces. */
async function insertRecord(key: string, expiresAt: Date): Promise<string> {
  const row = await prisma.idempotencyRecord.create({
    data: {
      tenantId,
      credentialId: "worker-test",
      key,
      requestHash: "h",
      responseStatus: 201,
      responseBody: "{}",
      expiresAt,
    },
  });
  return row.id;
}

async function recordExists(id: string): Promise<boolean> {
  return (await prisma.idempotencyRecord.count({ where: { id } })) === 1;
}

async function jobExists(id: string): Promise<boolean> {
  const rows = await prisma.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE id = ${id}::bigint`;
  return rows[0].n === 1;
}

/** Another worker on this database (the test server's) may take the job: wait for it to be done. */
async function untilJobDone(id: string): Promise<void> {
  for (let attempt = 0; attempt < 200 && (await jobExists(id)); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  url = testDatabaseUrl();
  // Job handlers use the process-wide client, as they do in the worker process.
  restoreProcessDatabase = useProcessDatabase(url);
  prisma = createDb(url, { max: 4 });
  utils = await makeWorkerUtils({ connectionString: url, logger: quiet });
  // A bare tenant row to own the records (removed afterwards); createTenant would add clients and keys.
  const tenant = await prisma.tenant.create({
    data: { name: "Worker test", slug: `worker-test-${randomUUID()}` },
  });
  tenantId = tenant.id;
});

afterAll(async () => {
  if (tenantId) await prisma.tenant.delete({ where: { id: tenantId } });
  await utils?.release();
  await prisma?.$disconnect();
  await restoreProcessDatabase?.();
});

describe("purge_expired_idempotency", () => {
  it("deletes expired idempotency records and keeps live ones when run by graphile-worker", async () => {
    const expired = await insertRecord(`expired-${randomUUID()}`, new Date(Date.now() - hour));
    const fresh = await insertRecord(`fresh-${randomUUID()}`, new Date(Date.now() + hour));

    const job = await quickAddJob({ connectionString: url, logger: quiet }, "purge_expired_idempotency", {});
    await runOnce({ connectionString: url, taskList, noHandleSignals: true, logger: quiet });
    await untilJobDone(job.id);

    expect(await jobExists(job.id)).toBe(false);
    expect(await recordExists(expired)).toBe(false);
    expect(await recordExists(fresh)).toBe(true);
  });

  it("purges in batches and reports how many rows went", async () => {
    const expired = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => insertRecord(`batch-${n}-${randomUUID()}`, new Date(Date.now() - hour))),
    );
    const fresh = await insertRecord(`batch-fresh-${randomUUID()}`, new Date(Date.now() + hour));

    const deleted = await purgeExpiredIdempotency(prisma, new Date(), 2);

    expect(deleted).toBeGreaterThanOrEqual(5);
    for (const id of expired) expect(await recordExists(id)).toBe(false);
    expect(await recordExists(fresh)).toBe(true);
  });
});

describe("enqueueJob", () => {
  // Far in the future, so no worker on this database runs the job while the test looks at it.
  const runAt = new Date(Date.now() + 365 * 24 * hour);

  it("leaves no job behind when the transaction rolls back", async () => {
    let jobId: string | undefined;
    await expect(
      prisma.$transaction(async (tx) => {
        jobId = await enqueueJob(tx, "purge_expired_idempotency", { test: "rollback" }, { runAt });
        expect(await jobExists(jobId!)).toBe(false); // not visible outside the transaction
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");

    expect(jobId).toBeDefined();
    expect(await jobExists(jobId!)).toBe(false);
  });

  it("enqueues the job when the transaction commits", async () => {
    const jobId = await tenantDb(prisma, tenantId).$transaction((tx) =>
      enqueueJob(tx, "purge_expired_idempotency", { test: "commit" }, { runAt }),
    );

    expect(await jobExists(jobId)).toBe(true);
    const [job] = await prisma.$queryRaw<{ task_identifier: string; run_at: Date }[]>`
      SELECT task_identifier, run_at FROM graphile_worker.jobs WHERE id = ${jobId}::bigint`;
    expect(job.task_identifier).toBe("purge_expired_idempotency");
    expect(job.run_at.getTime()).toBe(runAt.getTime());

    await utils.completeJobs([jobId]);
    expect(await jobExists(jobId)).toBe(false);
  });
});
