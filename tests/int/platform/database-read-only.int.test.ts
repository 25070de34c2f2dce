import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../../../server/db/client.ts";
import { isDatabaseUnavailable } from "../../../server/db/errors.ts";
import { createPgPool } from "../../../server/db/pool.ts";
import { createTenant } from "../../../server/domain/cross-tenant.ts";
import { errorAnswer } from "../../../server/http/route-answer.ts";

/**
 * A write that reaches a server which cannot take writes (SQLSTATE 25006, read_only_sql_transaction)
 * is what a failover looks like to the service for a moment: HAProxy routes new connections to the
 * standby as soon as its Patroni holds the leader key, before the promotion has finished
 * (docs/operations.md "Failover test"). It must answer 503 `service.unavailable` with Retry-After,
 * never 500. The session here is made read-only by PostgreSQL itself (default_transaction_read_only),
 * so the error is the real one through Prisma's pg adapter and through a plain pg pool.
 */
const readOnlyUrl = () => {
  const url = new URL(inject("databaseUrl"));
  url.searchParams.set("options", "-c default_transaction_read_only=on");
  return url.toString();
};

const request = { path: "/api/v1/test", method: "POST", route: "test", correlationId: "read-only-test" };
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
});

describe("a write refused by a read-only server", () => {
  it("through Prisma answers 503 service.unavailable with Retry-After", async () => {
    const db = createDb(readOnlyUrl(), { max: 1 });
    closers.push(() => db.$disconnect());
    const error = await createTenant(db, { name: "Read-only" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String((error as Error)?.message)).toMatch(/read-only transaction/);
    expect(isDatabaseUnavailable(error)).toBe(true);
    const { answer, codeName } = errorAnswer(error, request, {});
    expect(answer.status).toBe(503);
    expect(answer.headers["retry-after"]).toBe("1");
    expect(codeName).toBe("service.unavailable");
    expect(JSON.parse(answer.body!)).toMatchObject({ status: 503, codeName: "service.unavailable" });
  });

  it("through a plain pg pool (SQLSTATE 25006) is unavailable too", async () => {
    const pool = createPgPool(readOnlyUrl(), 1);
    closers.push(() => pool.end());
    const error = await pool.query("CREATE TABLE read_only_probe (x int)").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as { code?: string })?.code).toBe("25006");
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(errorAnswer(error, request, {}).answer.status).toBe(503);
  });
});
