import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { sessionCall } from "../../helpers/runtime.ts";
import {
  consume,
  mediumAndCriticalBands,
  meteredLicense,
  overageTiers,
  meterUsage,
  ok200,
  parallelRequest,
  previewConsume,
  USAGE,
  type Session,
} from "../../helpers/metering.ts";
import { sweepConsumeKeys } from "../../../server/domain/cross-tenant.ts";
import { sqlOnPool } from "../../../server/db/sql.ts";

const LONG_LEASE = { claimBasedActivation: { leaseTime: "P400D" } };

describe("consumption decisions", () => {
  let tenant: TestTenant;
  let pool: pg.Pool;

  beforeAll(async () => {
    tenant = await createTestTenant("Consumption");
    pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
  });
  afterAll(async () => pool.end());

  const ledger = (entitlementId: string) =>
    testDb().consumeEntry.findMany({ where: { tenantId: tenant.tenantId, entitlementId } });
  const balance = (id: string) => testDb().balanceUsage.findUniqueOrThrow({ where: { id } });

  it("preview-consume changes nothing and reserves nothing", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "api-calls", value: "10" }],
    });
    const s = await license.session();
    for (let i = 0; i < 3; i++) {
      const preview = ok200(await previewConsume(s, "api-calls", 10));
      expect(preview).toMatchObject({
        allowed: true,
        committed: false,
        usage: 10,
        remaining: 0,
        creditsCharged: 0,
      });
    }
    expect(await ledger(license.entitlement.id)).toEqual([]);
    expect(await testDb().meterPeriod.count({ where: { entitlementId: license.entitlement.id } })).toBe(0);
    // Nothing was reserved: the whole allowance is still there to consume.
    expect(ok200(await consume(s, "api-calls", 10))).toMatchObject({
      allowed: true,
      committed: true,
      usage: 10,
    });
    expect(ok200(await previewConsume(s, "api-calls"))).toMatchObject({
      allowed: false,
      reasonCode: "QuotaExceeded",
      amount: 1,
    });
  });

  it("a consume within the feature value is allowed and written to the ledger; past it the consume is refused and nothing is charged", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "api-calls", value: "10" }],
    });
    const s = await license.session();
    const first = ok200(await consume(s, "api-calls", "7.5"));
    expect(first).toMatchObject({
      allowed: true,
      reasonCode: "Allowed",
      committed: true,
      usageKind: "Metered",
      amount: 7.5,
      usage: 7.5,
      limit: 10,
      remaining: 2.5,
      tierName: "Included",
      severity: "None",
      periodKey: expect.stringMatching(/^month:/),
      periodEnd: expect.any(String),
    });
    const refused = ok200(await consume(s, "api-calls", 3));
    expect(refused).toMatchObject({
      allowed: false,
      reasonCode: "QuotaExceeded",
      committed: false,
      usage: 7.5,
    });
    const entries = await ledger(license.entitlement.id);
    expect(entries.map((e) => [e.amount.toString(), e.usageAfter.toString(), e.sessionId])).toEqual([
      ["7.5", "7.5", s.sessionId],
    ]);
    expect(ok200(await meterUsage(s, "api-calls"))).toMatchObject({
      usage: 7.5,
      consumedUsage: 7.5,
      consumeCount: 1,
    });
  });

  it("404 license.metric_not_tracked on consume and preview of a metric the license does not track, charging nothing", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "credits", balance: { totalCredits: 10 } }],
    });
    const s = await license.session();
    expectProblem(await consume(s, "api-calls", 1), 404, "license.metric_not_tracked");
    expectProblem(await previewConsume(s, "api-calls", 1), 404, "license.metric_not_tracked");
    // Metric names match exactly and case-sensitively.
    expectProblem(await consume(s, "Credits", 1), 404, "license.metric_not_tracked");
    expect(await ledger(license.entitlement.id)).toEqual([]);
    expect((await balance(license.assets.credits.balanceUsageId!)).creditsUsed.toNumber()).toBe(0);
  });

  it("a session that no longer exists answers 409 license.no_active_session on consume, preview and reads; another session's token 401", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: "10" }],
    });
    const s = await license.session();
    const other = await license.session();
    expectProblem(
      await request("POST", `${USAGE}/consume/${s.sessionId}/api-calls?amount=1`, { token: other.token }),
      401,
      "license.session_token_rejected",
    );
    expectProblem(
      await request("POST", `${USAGE}/consume/${s.sessionId}/api-calls?amount=1`),
      401,
      "license.session_token_rejected",
    );
    expect((await sessionCall("release", s.sessionId, s.token)).status).toBe(200);
    expectProblem(await consume(s, "api-calls", 1), 409, "license.no_active_session");
    expectProblem(await previewConsume(s, "api-calls", 1), 409, "license.no_active_session");
    expectProblem(await consume(s, "not-tracked", 1), 409, "license.no_active_session");
    expectProblem(await meterUsage(s, "api-calls"), 409, "license.no_active_session");
    expect(await ledger(license.entitlement.id)).toEqual([]);
  });

  it("amount must be a positive decimal with at most 6 places (400 license.validation_error)", async () => {
    const license = await meteredLicense(tenant, { metrics: [{ metricName: "api-calls" }] });
    const s = await license.session();
    for (const bad of ["0", "-1", "1.0000001", "abc", "1e3", ""])
      expectProblem(await consume(s, "api-calls", bad), 400, "license.validation_error");
    expectProblem(
      await request("POST", `${USAGE}/consume/${s.sessionId}/api-calls`, { token: s.token }),
      400,
      "license.validation_error",
    );
    expect(ok200(await consume(s, "api-calls", "0.000001"))).toMatchObject({
      allowed: true,
      usageKind: "Tracked",
    });
  });

  it("idempotencyKey: a repeat answers the remembered decision and counts once; another amount under the key is 409; a refusal is not remembered", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: "10" }],
    });
    const s = await license.session();
    const first = ok200(await consume(s, "api-calls", 4, { idempotencyKey: "job-1" }));
    const again = ok200(await consume(s, "api-calls", 4, { idempotencyKey: "job-1" }));
    expect(again).toEqual({ ...first, idempotentReplay: true });
    // The key belongs to the license: another session of it gets the same answer.
    const s2 = await license.session();
    expect(ok200(await consume(s2, "api-calls", 4, { idempotencyKey: "job-1" }))).toMatchObject({
      idempotentReplay: true,
      usage: 4,
    });
    expectProblem(
      await consume(s, "api-calls", 5, { idempotencyKey: "job-1" }),
      409,
      "idempotency.key_reused",
    );
    const refused = ok200(await consume(s, "api-calls", 7, { idempotencyKey: "job-2" }));
    expect(refused).toMatchObject({ allowed: false, idempotentReplay: false });
    expect(ok200(await consume(s, "api-calls", 6, { idempotencyKey: "job-3" }))).toMatchObject({ usage: 10 });
    const retried = ok200(await consume(s, "api-calls", 7, { idempotencyKey: "job-2" }));
    expect(retried).toMatchObject({ allowed: false, reasonCode: "QuotaExceeded", idempotentReplay: false });
    expect((await ledger(license.entitlement.id)).map((e) => e.amount.toNumber()).sort()).toEqual([4, 6]);
  });

  it("idempotency key expiry with an injected clock: remembered 24 hours, forgotten by the worker's sweep within the hour after, then a repeat counts as a new consume", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: "100" }],
    });
    const s = await license.session();
    ok200(await consume(s, "api-calls", 2, { idempotencyKey: "nightly" }));
    const key = await testDb().consumeIdempotencyKey.findFirstOrThrow({
      where: { tenantId: tenant.tenantId, entitlementId: license.entitlement.id },
    });
    const hour = 3_600_000;
    const keys = () =>
      testDb().consumeIdempotencyKey.count({
        where: { tenantId: tenant.tenantId, entitlementId: license.entitlement.id },
      });
    await sweepConsumeKeys(sqlOnPool(pool), new Date(key.createdAt.getTime() + 24 * hour - 60_000));
    expect(await keys()).toBe(1);
    expect(ok200(await consume(s, "api-calls", 2, { idempotencyKey: "nightly" }))).toMatchObject({
      idempotentReplay: true,
    });
    // The sweep runs every 15 minutes: a key 24 h 15 min old is gone.
    await sweepConsumeKeys(sqlOnPool(pool), new Date(key.createdAt.getTime() + 24 * hour + 15 * 60_000));
    expect(await keys()).toBe(0);
    expect(ok200(await consume(s, "api-calls", 2, { idempotencyKey: "nightly" }))).toMatchObject({
      idempotentReplay: false,
      committed: true,
      usage: 4,
    });
  });

  describe("each period boundary with periodAnchor", () => {
    const t0 = new Date();
    const y = t0.getUTCFullYear();
    const m = t0.getUTCMonth();
    const d = t0.getUTCDate();
    const fixedAnchor = new Date(t0.getTime() - (3 * 86_400_000 + 7 * 3_600_000 + 13 * 60_000 + 17_500));
    const nextFixed = (len: number) =>
      new Date(fixedAnchor.getTime() + Math.ceil((t0.getTime() - fixedAnchor.getTime()) / len) * len);
    // A month anchor on a 31st (clamped in shorter months) and a year anchor on Feb 29 of a leap year.
    const monthAnchor = new Date(Date.UTC(y, m - 1, 31, 10, 20, 30));
    const monthBoundary = (() => {
      for (let k = 1; ; k++) {
        const last = new Date(Date.UTC(y, m - 1 + k + 1, 0)).getUTCDate();
        const b = new Date(Date.UTC(y, m - 1 + k, Math.min(31, last), 10, 20, 30));
        if (b > t0) return b;
      }
    })();
    const yearAnchor = new Date(Date.UTC(2024, 1, 29, 6, 0, 0));
    const yearBoundary = (() => {
      for (let year = 2025; ; year++) {
        const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
        const b = new Date(Date.UTC(year, 1, leap ? 29 : 28, 6, 0, 0));
        if (b > t0) return b;
      }
    })();
    const mondayOffset = (t0.getUTCDay() + 6) % 7;
    const cases: [string, string, Date | null, Date][] = [
      ["minute", "Calendar", null, new Date(Math.floor(t0.getTime() / 60_000) * 60_000 + 60_000)],
      ["hour", "Calendar", null, new Date(Math.floor(t0.getTime() / 3_600_000) * 3_600_000 + 3_600_000)],
      ["day", "Calendar", null, new Date(Date.UTC(y, m, d + 1))],
      ["week", "Calendar", null, new Date(Date.UTC(y, m, d - mondayOffset + 7))],
      ["month", "Calendar", null, new Date(Date.UTC(y, m + 1, 1))],
      ["year", "Calendar", null, new Date(Date.UTC(y + 1, 0, 1))],
      ["minute", "EntitlementStart", fixedAnchor, nextFixed(60_000)],
      ["hour", "EntitlementStart", fixedAnchor, nextFixed(3_600_000)],
      ["day", "EntitlementStart", fixedAnchor, nextFixed(86_400_000)],
      ["week", "EntitlementStart", fixedAnchor, nextFixed(7 * 86_400_000)],
      ["month", "EntitlementStart", monthAnchor, monthBoundary],
      ["year", "EntitlementStart", yearAnchor, yearBoundary],
    ];
    for (const [period, anchor, anchorAt, boundary] of cases) {
      it(`${period} periods anchored at ${anchor}: usage resets exactly at ${anchor === "Calendar" ? "the UTC calendar boundary" : "the anchor's next period"}`, async () => {
        const license = await meteredLicense(tenant, {
          metrics: [
            { metricName: "api-calls", metered: { consumptionPeriod: period, periodAnchor: anchor } },
          ],
          features: [{ metricName: "api-calls", value: "5" }],
          entitlement: { ...LONG_LEASE, ...(anchorAt ? { notValidBeforeDateTime: anchorAt } : {}) },
        });
        const s = await license.session();
        const at = (t: Date) => ({ headers: { "x-test-clock": t.toISOString() } });
        const before = new Date(boundary.getTime() - 1);
        const last = ok200(await consume(s, "api-calls", 5, at(before)));
        expect(last).toMatchObject({ allowed: true, usage: 5, periodEnd: boundary.toISOString() });
        expect(ok200(await consume(s, "api-calls", 1, at(before)))).toMatchObject({
          allowed: false,
          reasonCode: "QuotaExceeded",
        });
        const next = ok200(await consume(s, "api-calls", 5, at(boundary)));
        expect(next).toMatchObject({
          allowed: true,
          usage: 5,
          periodStart: boundary.toISOString(),
          periodKey: `${period}:${boundary.toISOString()}`,
        });
        expect(last.periodKey).not.toBe(next.periodKey);
      });
    }

    it("a blank consumptionPeriod is a lifetime allowance that never resets", async () => {
      const license = await meteredLicense(tenant, {
        metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "" } }],
        features: [{ metricName: "api-calls", value: "5" }],
        entitlement: LONG_LEASE,
      });
      const s = await license.session();
      expect(ok200(await consume(s, "api-calls", 5))).toMatchObject({
        periodKey: "lifetime",
        periodEnd: null,
      });
      const later = new Date(Date.now() + 300 * 86_400_000).toISOString();
      expect(ok200(await consume(s, "api-calls", 1, { headers: { "x-test-clock": later } }))).toMatchObject({
        allowed: false,
        reasonCode: "QuotaExceeded",
      });
    });
  });

  it("percentage tiers are relative to the feature value: severity per tier, and the Block tier refuses past its start", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "renders",
          metered: {
            consumptionPeriod: "month",
            usageTiers: [
              { name: "Included", startUsage: 0, startPercentage: 0, endPercentage: 50 },
              {
                name: "Heavy",
                startUsage: 0,
                startPercentage: 50,
                endPercentage: 100,
                quotaUsageLevel: "Low",
                quotaUsagePolicy: "Notify",
              },
              {
                name: "Over",
                startUsage: 0,
                startPercentage: 100,
                endPercentage: 0,
                quotaUsageLevel: "High",
                quotaUsagePolicy: "Block",
              },
            ],
          },
        },
      ],
      features: [{ metricName: "renders", value: "200" }],
    });
    const s = await license.session();
    expect(ok200(await consume(s, "renders", 100))).toMatchObject({
      tierName: "Included",
      severity: "None",
      limit: 100,
    });
    expect(ok200(await consume(s, "renders", 1))).toMatchObject({
      tierName: "Heavy",
      severity: "Low",
      remaining: 0,
    });
    expect(ok200(await consume(s, "renders", 99))).toMatchObject({
      allowed: true,
      usage: 200,
      tierName: "Heavy",
    });
    expect(ok200(await consume(s, "renders", "0.5"))).toMatchObject({
      allowed: false,
      reasonCode: "QuotaExceeded",
      tierName: "Over",
    });
  });

  it("funded overage: every unit past the tier start is priced (baseCredits + creditsPerUnitOfConsumption) and charged to fundingBalanceMetric on commit; refused when it cannot be paid", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "api-calls",
          metered: {
            consumptionPeriod: "month",
            usageTiers: overageTiers(100, {
              baseCredits: 5,
              creditsPerUnitOfConsumption: 0.5,
              quotaUsageLevel: "Medium",
            }),
          },
        },
        { metricName: "credits", balance: { totalCredits: 100 } },
      ],
      features: [{ metricName: "api-calls", value: "100" }],
    });
    const s = await license.session();
    const credits = license.assets.credits.balanceUsageId!;
    expect(ok200(await consume(s, "api-calls", 100))).toMatchObject({
      reasonCode: "Allowed",
      creditsCharged: 0,
    });
    const over = ok200(await consume(s, "api-calls", 10));
    expect(over).toMatchObject({
      allowed: true,
      reasonCode: "AllowedWithOverage",
      overageUnits: 10,
      overageCredits: 10,
      creditsCharged: 10,
      fundingBalanceMetric: "credits",
      balanceAfter: 90,
      tierName: "Overage",
      severity: "Medium",
    });
    expect(ok200(await consume(s, "api-calls", 4))).toMatchObject({ creditsCharged: 2, balanceAfter: 88 });
    const unpaid = ok200(await consume(s, "api-calls", 200));
    expect(unpaid).toMatchObject({
      allowed: false,
      reasonCode: "InsufficientCredits",
      creditsCharged: 0,
      fundingBalanceMetric: "credits",
      balanceAfter: 88,
      usage: 114,
    });
    const b = await balance(credits);
    expect([b.creditsUsed.toNumber(), b.cumulativeCreditsUsed.toNumber(), b.totalCredits.toNumber()]).toEqual(
      [12, 12, 100],
    );
    const history = await testDb().balanceHistoryEntry.findMany({
      where: { balanceUsageId: credits },
      orderBy: { seq: "asc" },
    });
    expect(history.map((h) => [h.operation, h.amount.toNumber(), h.sourceRef?.split(":")[0]])).toEqual([
      ["OverageCharge", 10, "consume"],
      ["OverageCharge", 2, "consume"],
    ]);
    const entries = await ledger(license.entitlement.id);
    expect(entries.reduce((sum, e) => sum + e.creditsCharged.toNumber(), 0)).toBe(12);
  });

  it("unfunded overage: AllowWithOverage without fundingBalanceMetric is allowed and only reported", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "api-calls",
          metered: {
            usageTiers: overageTiers(10, {
              creditsPerUnitOfConsumption: 2,
              quotaUsageLevel: "High",
              fundingBalanceMetric: "",
            }),
          },
        },
      ],
    });
    const s = await license.session();
    const decision = ok200(await consume(s, "api-calls", 15));
    expect(decision).toMatchObject({
      allowed: true,
      reasonCode: "AllowedWithOverage",
      overageUnits: 5,
      overageCredits: 10,
      creditsCharged: 0,
      fundingBalanceMetric: null,
      severity: "High",
      remaining: 0,
    });
    const [entry] = await ledger(license.entitlement.id);
    expect([
      entry.overageUnits.toNumber(),
      entry.creditsPriced.toNumber(),
      entry.creditsCharged.toNumber(),
    ]).toEqual([5, 10, 0]);
  });

  it("accumulationMethod Whole prices every overage unit at the rate of the tier the usage reaches", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "gb",
          metered: {
            accumulationMethod: "Whole",
            usageTiers: [
              { name: "Free", startUsage: 0, endUsage: 10 },
              {
                name: "Standard",
                startUsage: 10,
                endUsage: 20,
                creditsPerUnitOfConsumption: 2,
                quotaUsagePolicy: "AllowWithOverage",
                fundingBalanceMetric: "credits",
              },
              {
                name: "Bulk",
                startUsage: 20,
                creditsPerUnitOfConsumption: 1,
                quotaUsagePolicy: "AllowWithOverage",
                fundingBalanceMetric: "credits",
              },
            ],
          },
        },
        { metricName: "credits", balance: { totalCredits: 1000 } },
      ],
    });
    const s = await license.session();
    expect(ok200(await consume(s, "gb", 15))).toMatchObject({ creditsCharged: 10 });
    // 15 → 19: all 9 overage units at 2 = 18 priced, 10 already charged.
    expect(ok200(await consume(s, "gb", 4))).toMatchObject({ creditsCharged: 8 });
    // 19 → 30: the usage reaches Bulk, so all 20 overage units at 1 = 20; 18 priced already: 2 more.
    expect(ok200(await consume(s, "gb", 11))).toMatchObject({ creditsCharged: 2, tierName: "Bulk" });
    expect((await balance(license.assets.credits.balanceUsageId!)).creditsUsed.toNumber()).toBe(20);
  });

  it("a balance's Critical usageQuota band blocks further deductions (a consume of its metric, and overage charged to it)", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "credits",
          balance: {
            totalCredits: 100,
            usageQuota: mediumAndCriticalBands,
          },
        },
        {
          metricName: "api-calls",
          metered: {
            usageTiers: [
              {
                name: "Paid",
                startUsage: 0,
                creditsPerUnitOfConsumption: 1,
                quotaUsagePolicy: "AllowWithOverage",
                fundingBalanceMetric: "credits",
              },
            ],
          },
        },
      ],
    });
    const s = await license.session();
    expect(ok200(await consume(s, "credits", 60))).toMatchObject({
      allowed: true,
      usageKind: "Balance",
      severity: "Medium",
      balanceAfter: 40,
      creditsCharged: 60,
    });
    // Entering the Critical band is the last deduction it lets through.
    expect(ok200(await consume(s, "credits", 25))).toMatchObject({
      allowed: true,
      severity: "Critical",
      balanceAfter: 15,
    });
    expect(ok200(await consume(s, "credits", 1))).toMatchObject({
      allowed: false,
      reasonCode: "CriticalBalance",
      balanceAfter: 15,
    });
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({
      allowed: false,
      reasonCode: "CriticalBalance",
      fundingBalanceMetric: "credits",
    });
    expect((await balance(license.assets.credits.balanceUsageId!)).creditsUsed.toNumber()).toBe(85);
    // A top-up lifts it out of the band.
    const top = await request(
      "POST",
      `/api/v1/provision/operational/entitlements/${license.entitlement.id}/balances/credits/deposit`,
      { token: await tenant.token("provision.balance.*"), body: { amount: 100 } },
    );
    expect(top.status, top.text).toBe(200);
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({ allowed: true, balanceAfter: 114 });
  });

  it("suspendedUntilAt: a suspended meter refuses consumption until the instant passes; a suspended balance refuses deductions", async () => {
    const until = new Date(Date.now() + 3_600_000);
    const license = await meteredLicense(tenant, {
      metrics: [
        { metricName: "api-calls", metered: { suspendedUntilAt: until } },
        { metricName: "credits", balance: { totalCredits: 10, suspendedUntilAt: until } },
      ],
      entitlement: LONG_LEASE,
    });
    const s = await license.session();
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({
      allowed: false,
      reasonCode: "MeterSuspended",
    });
    expect(ok200(await consume(s, "credits", 1))).toMatchObject({
      allowed: false,
      reasonCode: "BalanceSuspended",
    });
    const after = { headers: { "x-test-clock": until.toISOString() } };
    expect(ok200(await consume(s, "api-calls", 1, after))).toMatchObject({ allowed: true });
    expect(ok200(await consume(s, "credits", 1, after))).toMatchObject({ allowed: true, balanceAfter: 9 });
  });

  it("a disabled feature refuses consumption of its metric", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: "10", isEnabled: false }],
    });
    const s = await license.session();
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({
      allowed: false,
      reasonCode: "FeatureDisabled",
    });
  });

  it("a change of the terms reaches the next decision (the per-process cache is versioned)", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: "10" }],
    });
    const s = await license.session();
    expect(ok200(await consume(s, "api-calls", 10))).toMatchObject({ allowed: true });
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({ allowed: false });
    await testDb().meteredUsage.update({
      where: { id: license.assets["api-calls"].meteredUsageId! },
      data: {
        usageTiers: [
          {
            name: "Included",
            startUsage: 0,
            startPercentage: 0,
            endUsage: 20,
            endPercentage: 0,
            baseCredits: 0,
            creditsPerUnitOfConsumption: 0,
            quotaUsageLevel: "None",
            quotaUsagePolicy: "None",
            fundingBalanceMetric: "",
          },
        ],
      },
    });
    expect(ok200(await consume(s, "api-calls", 1))).toMatchObject({ allowed: true, limit: 20 });
  });

  it("100 parallel consumes on one meter never over-consume or double-charge (checked against the ledger)", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "api-calls",
          metered: {
            consumptionPeriod: "day",
            usageTiers: [
              { name: "Included", startUsage: 0, endUsage: 40 },
              {
                name: "Overage",
                startUsage: 40,
                endUsage: 60,
                creditsPerUnitOfConsumption: 1,
                quotaUsagePolicy: "AllowWithOverage",
                fundingBalanceMetric: "credits",
              },
              { name: "Stop", startUsage: 60, quotaUsagePolicy: "Block", quotaUsageLevel: "Critical" },
            ],
          },
        },
        { metricName: "credits", balance: { totalCredits: 15 } },
      ],
    });
    const sessions: Session[] = await Promise.all([
      license.session(),
      license.session(),
      license.session(),
      license.session(),
    ]);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        parallelRequest(
          "POST",
          `${USAGE}/consume/${sessions[i % 4].sessionId}/api-calls?amount=1&idempotencyKey=k-${i % 90}`,
          {
            token: sessions[i % 4].token,
          },
        ),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const allowed = answers.filter((a) => a.body.allowed);
    const entries = await ledger(license.entitlement.id);
    // 40 free units, then 15 paid by the 15 credits; everything after is refused.
    expect(entries.length).toBe(55);
    const period = await testDb().meterPeriod.findFirstOrThrow({
      where: { entitlementId: license.entitlement.id },
    });
    expect(period.usage.toNumber()).toBe(55);
    expect(period.consumeCount).toBe(55);
    expect(entries.reduce((s, e) => s + e.creditsCharged.toNumber(), 0)).toBe(15);
    const credits = await balance(license.assets.credits.balanceUsageId!);
    expect([credits.creditsUsed.toNumber(), credits.totalCredits.toNumber()]).toEqual([15, 15]);
    // Ten keys were sent twice: a repeat is a replay of one ledger entry, never a second consume.
    const keyed = new Map<string, number>();
    for (const e of entries)
      if (e.idempotencyKey) keyed.set(e.idempotencyKey, (keyed.get(e.idempotencyKey) ?? 0) + 1);
    expect([...keyed.values()].every((n) => n === 1)).toBe(true);
    expect(allowed.filter((a) => !a.body.idempotentReplay).length).toBe(55);
    const usagesAfter = allowed
      .filter((a) => !a.body.idempotentReplay)
      .map((a) => a.body.usage)
      .sort((a, b) => a - b);
    expect(usagesAfter).toEqual(Array.from({ length: 55 }, (_, i) => i + 1));
  });

  it("parallel consumes without idempotency keys (the one-statement fast path) stop exactly at the limit, each counted once", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "day" } }],
      features: [{ metricName: "api-calls", value: "60" }],
    });
    const sessions: Session[] = await Promise.all([license.session(), license.session()]);
    ok200(await consume(sessions[0], "api-calls", 1));
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        parallelRequest("POST", `${USAGE}/consume/${sessions[i % 2].sessionId}/api-calls?amount=1`, {
          token: sessions[i % 2].token,
        }),
      ),
    );
    expect(answers.filter((a) => a.body.allowed).length).toBe(59);
    expect(answers.filter((a) => a.body.reasonCode === "QuotaExceeded").length).toBe(41);
    const entries = await ledger(license.entitlement.id);
    expect(entries.length).toBe(60);
    expect(new Set(entries.map((e) => e.usageAfter.toNumber())).size).toBe(60);
    const period = await testDb().meterPeriod.findFirstOrThrow({
      where: { entitlementId: license.entitlement.id },
    });
    expect([period.usage.toNumber(), period.consumeCount]).toEqual([60, 60]);
  });

  it("tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked", async () => {
    const other = await createTestTenant("Consumption other");
    const theirs = await meteredLicense(other, { metrics: [{ metricName: "secret-metric" }] });
    const ours = await meteredLicense(tenant, { metrics: [{ metricName: "api-calls" }] });
    const s = await ours.session();
    const foreign = await theirs.session();
    expectProblem(
      await request("POST", `${USAGE}/consume/${foreign.sessionId}/secret-metric?amount=1`, {
        token: s.token,
      }),
      401,
      "license.session_token_rejected",
    );
    expectProblem(await consume(s, "secret-metric", 1), 404, "license.metric_not_tracked");
    expectProblem(
      await request("POST", `${USAGE}/consume/${randomUUID()}/api-calls?amount=1`, { token: s.token }),
      401,
      "license.session_token_rejected",
    );
  });
});
