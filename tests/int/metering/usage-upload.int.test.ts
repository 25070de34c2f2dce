import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { sessionCall } from "../../helpers/runtime.ts";
import { eventually } from "../../helpers/webhooks.ts";
import {
  consume,
  meteredLicense,
  meterUsage,
  ok200,
  overageTiers,
  parallelRequest,
  record,
  USAGE,
  uploadEntitlement,
  uploadSession,
} from "../../helpers/metering.ts";

const DAY = 86_400_000;

describe("usage upload", () => {
  let tenant: TestTenant;
  let usageToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Usage upload");
    usageToken = await tenant.token("provision.usage.*");
  });

  const records = (entitlementId: string) =>
    testDb().usageRecord.findMany({
      where: { tenantId: tenant.tenantId, entitlementId },
      orderBy: { transactionId: "asc" },
    });

  it("records are counted into their metric's period and the answer acknowledges the highest processed transactionId", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "api-calls", value: "100" }],
    });
    const s = await license.session();
    const batch = [
      record({ eventName: "api-calls", eventData: { amount: 2.5 } }),
      record({ eventName: "ApiCallEvent", eventData: { metricName: "api-calls", amount: "4" } }),
      record({ eventName: "api-calls" }),
    ];
    const answer = ok200(await uploadSession(s, batch));
    expect(answer).toEqual({
      entitlementResolved: true,
      entitlementId: license.entitlement.id,
      acknowledgedTransactionId: batch[2].transactionId,
      received: 3,
      counted: 3,
      duplicates: 0,
      unmatched: 0,
      tooOld: 0,
      beyondBackDatingTolerance: 0,
      creditsCharged: 0,
      unfundedCredits: 0,
    });
    expect(ok200(await meterUsage(s, "api-calls"))).toMatchObject({
      usage: 7.5,
      reportedUsage: 7.5,
      recordCount: 3,
    });
    // Uploaded usage counts against the allowance consumes are judged on.
    expect(ok200(await consume(s, "api-calls", "92.5"))).toMatchObject({ allowed: true, usage: 100 });
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({ allowed: false });
  });

  it("the 90-day rule: a record captured more than 90 days before upload is acknowledged and not counted", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    const s = await license.session();
    const old = record({ eventName: "events", creationDateTime: new Date(Date.now() - 90 * DAY - 60_000) });
    const recent = record({ eventName: "events", creationDateTime: new Date(Date.now() - 89 * DAY) });
    const answer = ok200(await uploadSession(s, [old, recent]));
    expect(answer).toMatchObject({ counted: 1, tooOld: 1, acknowledgedTransactionId: recent.transactionId });
    expect(ok200(await meterUsage(s, "events"))).toMatchObject({ usage: 1, usageKind: "Tracked" });
    expect((await records(license.entitlement.id)).map((r) => r.status)).toEqual(["TooOld", "Counted"]);
    // Acknowledged means kept: a retry of it is a duplicate, still not counted.
    expect(ok200(await uploadSession(s, [old]))).toMatchObject({ counted: 0, tooOld: 0, duplicates: 1 });
  });

  it("cross-session dedupe: a batch retried under another session of the same license counts once", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    const a = await license.session();
    const b = await license.session();
    const [r1, r2, r3, r4] = [1, 2, 3, 4].map(() => record({ eventName: "events", sessionId: a.sessionId }));
    expect(ok200(await uploadSession(a, [r1, r2, r3]))).toMatchObject({ counted: 3, duplicates: 0 });
    const retried = ok200(await uploadSession(b, [r2, r3, r4, r4]));
    expect(retried).toMatchObject({ counted: 1, duplicates: 3, acknowledgedTransactionId: r4.transactionId });
    expect(ok200(await meterUsage(b, "events"))).toMatchObject({ usage: 4, recordCount: 4 });
    const stored = await records(license.entitlement.id);
    expect(stored.map((r) => [r.sessionId, r.uploadSessionId])).toEqual([
      [a.sessionId, a.sessionId],
      [a.sessionId, a.sessionId],
      [a.sessionId, a.sessionId],
      [a.sessionId, b.sessionId],
    ]);
  });

  it("allowedBackDatingTolerance: records older than the metric's tolerance are acknowledged and not counted", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "events", allowedBackDatingTolerance: "PT1H" }],
    });
    const s = await license.session();
    const late = record({ eventName: "events", creationDateTime: new Date(Date.now() - 2 * 3_600_000) });
    const fine = record({ eventName: "events", creationDateTime: new Date(Date.now() - 30 * 60_000) });
    expect(ok200(await uploadSession(s, [late, fine]))).toMatchObject({
      counted: 1,
      beyondBackDatingTolerance: 1,
    });
    expect((await records(license.entitlement.id)).map((r) => r.status)).toEqual([
      "BeyondBackDatingTolerance",
      "Counted",
    ]);
  });

  it("a session that no longer exists answers 200 with entitlementResolved: false and records nothing", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    const s = await license.session();
    expect((await sessionCall("release", s.sessionId, s.token)).status).toBe(200);
    const answer = ok200(await uploadSession(s, [record({ eventName: "events" })]));
    expect(answer).toMatchObject({
      entitlementResolved: false,
      entitlementId: null,
      acknowledgedTransactionId: null,
      counted: 0,
    });
    expect(await records(license.entitlement.id)).toEqual([]);
  });

  it("records that match no tracked metric are kept as unmatched, never an error for the batch", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    const s = await license.session();
    const batch = [
      record({ eventName: "SomethingElse" }),
      record({ eventName: "events", eventData: "not json" }),
      record({ eventName: "events", eventData: { amount: "lots" } }),
      record({ eventName: "Events" }),
      record({ eventName: "events" }),
    ];
    expect(ok200(await uploadSession(s, batch))).toMatchObject({ counted: 1, unmatched: 4 });
    expect((await records(license.entitlement.id)).map((r) => [r.status, r.note])).toEqual([
      ["Unmatched", 'no tracked metric "SomethingElse"'],
      ["Unmatched", "eventData is not JSON"],
      ["Unmatched", "amount is not a number"],
      ["Unmatched", 'no tracked metric "Events"'],
      ["Counted", null],
    ]);
  });

  it("Gauge metrics keep the latest level of the period, Maximum metrics the highest reading", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        { metricName: "seats-used", metricType: "Gauge", metered: { consumptionPeriod: "month" } },
        { metricName: "peak-jobs", metricType: "Maximum", metered: { consumptionPeriod: "month" } },
      ],
    });
    const s = await license.session();
    const t = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    ok200(
      await uploadSession(s, [
        record({ eventName: "seats-used", eventData: { amount: 10 }, creationDateTime: t(30) }),
        record({ eventName: "seats-used", eventData: { amount: 7 }, creationDateTime: t(10) }),
        record({ eventName: "peak-jobs", eventData: { amount: 3 } }),
        record({ eventName: "peak-jobs", eventData: { amount: 9 } }),
      ]),
    );
    // A reading older than the latest one does not replace it.
    ok200(
      await uploadSession(s, [
        record({ eventName: "seats-used", eventData: { amount: 12 }, creationDateTime: t(20) }),
        record({ eventName: "peak-jobs", eventData: { amount: 4 } }),
      ]),
    );
    expect(ok200(await meterUsage(s, "seats-used"))).toMatchObject({ usage: 7, recordCount: 3 });
    expect(ok200(await meterUsage(s, "peak-jobs"))).toMatchObject({ usage: 9, recordCount: 3 });
  });

  it("uploaded usage past an AllowWithOverage tier is charged to its funding balance; what it cannot pay is unfundedCredits, which a top-up does not reduce", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "api-calls",
          metered: {
            usageTiers: overageTiers(10),
          },
        },
        { metricName: "credits", balance: { totalCredits: 5 } },
      ],
    });
    const s = await license.session();
    const answer = ok200(
      await uploadSession(s, [
        record({ eventName: "api-calls", eventData: { amount: 12 } }),
        record({ eventName: "api-calls", eventData: { amount: 8 } }),
      ]),
    );
    expect(answer).toMatchObject({ counted: 2, creditsCharged: 5, unfundedCredits: 5 });
    const credits = license.assets.credits.balanceUsageId!;
    const after = await testDb().balanceUsage.findUniqueOrThrow({ where: { id: credits } });
    expect([after.creditsUsed.toNumber(), after.unfundedCredits.toNumber(), after.lastUnfundedAt]).toEqual([
      5,
      5,
      expect.any(Date),
    ]);
    const deposit = await request(
      "POST",
      `/api/v1/provision/operational/entitlements/${license.entitlement.id}/balances/credits/deposit`,
      { token: await tenant.token("provision.balance.*"), body: { amount: 50 } },
    );
    expect(deposit.status, deposit.text).toBe(200);
    expect(deposit.body.balanceUsage).toMatchObject({ unfundedCredits: 5, creditsUsed: 0, totalCredits: 50 });
    // Records of a balance's own metric spend its credits.
    ok200(await uploadSession(s, [record({ eventName: "credits", eventData: { amount: 20 } })]));
    const spent = await testDb().balanceUsage.findUniqueOrThrow({ where: { id: credits } });
    expect([spent.creditsUsed.toNumber(), spent.cumulativeCreditsUsed.toNumber()]).toEqual([20, 25]);
    const charged = (await records(license.entitlement.id)).map((r) => [
      r.creditsPriced.toNumber(),
      r.creditsCharged.toNumber(),
      r.unfundedCredits.toNumber(),
    ]);
    expect(charged).toEqual([
      [0, 0, 0],
      [10, 5, 5],
      [20, 20, 0],
    ]);
  });

  it("a batch is validated whole: a malformed record or more than 1,000 records is a 400 and records nothing", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    const s = await license.session();
    const bad = { ...record({ eventName: "events" }), creationDateTime: "yesterday" };
    expectProblem(
      await uploadSession(s, [record({ eventName: "events" }), bad]),
      400,
      "license.validation_error",
    );
    expectProblem(
      await uploadSession(s, [{ ...record({}), transactionId: "99999999999999999999" }]),
      400,
      "license.validation_error",
    );
    const many = Array.from({ length: 1001 }, () => record({ eventName: "events" }));
    expectProblem(await uploadSession(s, many), 400, "usage.batch_too_large");
    expect(await records(license.entitlement.id)).toEqual([]);
    // `{ records: [...] }` is the same batch.
    expect(ok200(await uploadSession(s, { records: [record({ eventName: "events" })] }))).toMatchObject({
      counted: 1,
    });
  });

  it("the entitlement-level upload takes an operational credential: 401 without, 403 with the wrong scope, 404 for another tenant's entitlement", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    const other = await createTestTenant("Usage other");
    const theirs = await meteredLicense(other, { metrics: [{ metricName: "events" }] });
    const batch = [record({ eventName: "events" })];
    expectProblem(await uploadEntitlement("", license.entitlement.id, batch), 401, "auth.unauthenticated");
    expectProblem(
      await uploadEntitlement(await tenant.token("provision.balance.*"), license.entitlement.id, batch),
      403,
      "auth.insufficient_scope",
    );
    expectProblem(
      await uploadEntitlement(usageToken, theirs.entitlement.id, batch),
      404,
      "license.not_found",
    );
    const answer = ok200(await uploadEntitlement(usageToken, license.entitlement.id, batch));
    expect(answer).toMatchObject({ entitlementResolved: true, counted: 1 });
    expect((await records(license.entitlement.id)).map((r) => r.uploadSessionId)).toEqual([null]);
  });

  it("the entitlement-level upload answers 503 with Retry-After under overload (bounded concurrency) and never loses an acknowledged record", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "events" }] });
    ok200(await uploadEntitlement(usageToken, license.entitlement.id, [record({ eventName: "events" })]));
    const blocker = new pg.Client({ connectionString: inject("databaseUrl") });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query(
        `SELECT 1 FROM "MeterPeriod" WHERE "tenantId" = $1 AND "entitlementId" = $2 FOR UPDATE`,
        [tenant.tenantId, license.entitlement.id],
      );
      const {
        rows: [{ pid }],
      } = await blocker.query("SELECT pg_backend_pid() AS pid");
      // Eight uploads (the default limit) hold every slot, each waiting on the locked meter.
      const held = Array.from({ length: 8 }, () => record({ eventName: "events" }));
      const running = held.map((r) =>
        parallelRequest("POST", `${USAGE}/entitlements/${license.entitlement.id}/transactions`, {
          token: usageToken,
          body: [r],
        }),
      );
      await eventually(async () => {
        // pg_stat_activity is a snapshot per transaction: the blocker's transaction must drop it.
        await blocker.query("SELECT pg_stat_clear_snapshot()");
        // Waiters queue on the row: the first waits on this transaction, the others on the first.
        const { rows } = await blocker.query(
          `WITH RECURSIVE chain(pid) AS (
             SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))
             UNION SELECT a.pid FROM pg_stat_activity a JOIN chain c ON c.pid = ANY(pg_blocking_pids(a.pid)))
           SELECT count(*)::int AS n FROM chain`,
          [pid],
        );
        return rows[0].n === 8;
      });
      const shedRecord = record({ eventName: "events" });
      const shed = await uploadEntitlement(usageToken, license.entitlement.id, [shedRecord]);
      expectProblem(shed, 503, "usage.overloaded");
      expect(shed.headers.get("retry-after")).toBe("1");
      await blocker.query("COMMIT");
      const answers = await Promise.all(running);
      for (const [i, a] of answers.entries())
        expect(ok200(a)).toMatchObject({ counted: 1, acknowledgedTransactionId: held[i].transactionId });
      const stored = new Set((await records(license.entitlement.id)).map((r) => Number(r.transactionId)));
      for (const r of held) expect(stored.has(r.transactionId)).toBe(true);
      expect(stored.has(shedRecord.transactionId)).toBe(false);
      expect(ok200(await uploadEntitlement(usageToken, license.entitlement.id, [shedRecord]))).toMatchObject({
        counted: 1,
      });
      const period = await testDb().meterPeriod.findFirstOrThrow({
        where: { entitlementId: license.entitlement.id },
      });
      expect(period.recordCount).toBe(10);
    } finally {
      await blocker.query("ROLLBACK").catch(() => undefined);
      await blocker.end();
    }
  });
});
