import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { insertLicense, insertSessions, seedRevenueData } from "../../helpers/report-fixtures.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { csvRecords as records } from "../../helpers/csv.ts";

const REPORTS = "/api/v1/provision/admin/reports";
const H1_2025 = "from=2025-01-01&to=2025-07-01";

describe("reports (GET /admin/reports/...)", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let seeded: Awaited<ReturnType<typeof seedRevenueData>>;

  beforeAll(async () => {
    tenant = await createTestTenant("Reports");
    other = await createTestTenant("Reports other");
    token = await tenant.token("provision.report.read");
    seeded = await seedRevenueData(testDb(), tenant.tenantId);
  });

  describe("revenue", () => {
    /*
     * Worked out by hand for [2025-01-01, 2025-07-01), months counted per calendar month:
     * Basic (10 EUR): e1 Jan–Jun 6; e2 15 Feb (14/28 = 0.5) + Mar + 1–16 Apr (15/30 = 0.5) = 2;
     *   e8 archived 1 Mar: 2; e9 lapsed 1 Feb, renewed 1 Mar: Jan + Mar–Jun = 5 → 15 months, 150 EUR.
     * Pro (25.5 EUR): e3 Jan–Mar 3 (then Team); e10 valid from 1 Jun: 1 → 4 months, 102 EUR.
     * Team (100 USD): e3 Apr–Jun 3 → 300 USD.  Free (0): e5 Mar–Jun 4 → 0.
     * Unpriced (null): e4 6 months, no revenue.  Trials: e6 6 months.  Draft e7: nothing.
     * Products: Basic → Writer; Pro and Team → Writer and Calc, halves:
     *   Writer 150 + 51 = 201 EUR and 150 USD; Calc 51 EUR and 150 USD.
     * Relative: Small w1 × 6 = 6; Large w3 × 3 (from Apr) = 9; Zero w0 × 6 = 0; total 15 →
     *   Small 0.4, Large 0.6, Zero 0; Unweighted 6 months apart; Draw holds all: 1.
     */
    it("revenue by plan: Absolute plans earn monthlyPrice × months active in each currency (hand-computed)", async () => {
      const res = await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token });
      expect(res.status, res.text).toBe(200);
      const report = res.body;
      expect(report).toMatchObject({ from: "2025-01-01T00:00:00.000Z", to: "2025-07-01T00:00:00.000Z" });
      expect(report.totals).toEqual([
        { currency: "EUR", revenue: 252 },
        { currency: "USD", revenue: 300 },
      ]);
      const plan = (name: string) =>
        report.revenueByPlan.find((p: { planName: string }) => p.planName === name);
      expect(plan("Basic")).toMatchObject({
        planSetId: seeded.planSets.absolute.id,
        planSetName: "Office plans",
        suiteName: "Office",
        pricingMode: "Absolute",
        monthlyPrice: 10,
        currency: "EUR",
        entitlementCount: 4,
        monthsActive: 15,
        revenue: 150,
      });
      expect(plan("Pro")).toMatchObject({
        entitlementCount: 2,
        monthsActive: 4,
        revenue: 102,
        currency: "EUR",
      });
      expect(plan("Team")).toMatchObject({
        entitlementCount: 1,
        monthsActive: 3,
        revenue: 300,
        currency: "USD",
      });
      expect(plan("Free")).toMatchObject({ monthlyPrice: 0, currency: null, monthsActive: 4, revenue: 0 });
      expect(report.revenueByPlan).toHaveLength(4);
    });

    it("null-priced plans are excluded from revenue and reported separately, never as free; trials earn nothing", async () => {
      const { body } = await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token });
      expect(body.unpricedPlans).toEqual([
        expect.objectContaining({
          planName: "Unpriced",
          pricingMode: "Absolute",
          entitlementCount: 1,
          monthsActive: 6,
        }),
      ]);
      expect(body.revenueByPlan.some((p: { planName: string }) => p.planName === "Unpriced")).toBe(false);
      expect(body.trials).toEqual({ entitlementCount: 1, monthsActive: 6 });
    });

    it("revenue by product splits each plan's revenue among the products its included line items configure", async () => {
      const { body } = await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token });
      const { writer, calc } = seeded.products;
      const rows = body.revenueByProduct.map((r: Record<string, unknown>) => [
        r.productName,
        r.currency,
        r.revenue,
      ]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ["Writer", "EUR", 201],
          ["Calc", "EUR", 51],
          ["Writer", "USD", 150],
          ["Calc", "USD", 150],
        ]),
      );
      expect(rows).toHaveLength(4);
      expect(
        body.revenueByProduct.find((r: { productId: string }) => r.productId === writer.id).productCode,
      ).toBe(writer.productCode);
      expect(body.revenueByProduct.some((r: { productId: string }) => r.productId === calc.id)).toBe(true);
    });

    it("Relative plans: relativeWeight × months active as shares of the total; null weights listed apart, zero weights share nothing", async () => {
      const { body } = await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token });
      const shares = Object.fromEntries(
        body.relativeSharesByPlan.map((p: { planName: string; share: number; weightedMonths: number }) => [
          p.planName,
          [p.share, p.weightedMonths],
        ]),
      );
      expect(shares).toEqual({ Small: [0.4, 6], Large: [0.6, 9], Zero: [0, 0] });
      expect(body.unweightedPlans).toEqual([
        expect.objectContaining({ planName: "Unweighted", pricingMode: "Relative", monthsActive: 6 }),
      ]);
      expect(body.relativeSharesByProduct).toEqual([
        expect.objectContaining({ productId: seeded.products.draw.id, productName: "Draw", share: 1 }),
      ]);
    });

    it("the period decides what counts: a plan change and an archive inside it split the months", async () => {
      const { body } = await request("GET", `${REPORTS}/revenue?from=2025-03-01&to=2025-05-01`, { token });
      // Mar–Apr: Basic e1 2 + e2 (Mar 1, Apr 0.5) 1.5 + e9 2 = 5.5 → 55 EUR (e8 archived 1 Mar);
      // Pro e3 Mar 1 → 25.5 EUR; Team e3 Apr 1 → 100 USD.
      expect(body.totals).toEqual([
        { currency: "EUR", revenue: 80.5 },
        { currency: "USD", revenue: 100 },
      ]);
      expect(body.revenueByPlan.find((p: { planName: string }) => p.planName === "Basic")).toMatchObject({
        monthsActive: 5.5,
        entitlementCount: 3,
      });
    });

    it("the revenue CSV streams one line per entitlement and plan segment, with months and revenue", async () => {
      const res = await request("GET", `${REPORTS}/revenue/csv?${H1_2025}`, { token });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(
        'attachment; filename="revenue_2025-01-01_2025-07-01.csv"',
      );
      const text = res.text;
      expect(text.split("\r\n")[0]).toBe(
        "entitlementId,entitlementName,customerId,isEntitlementTrial,planSetId,planName,pricingMode,monthlyPrice,currency,relativeWeight,from,to,monthsActive,revenue",
      );
      const lines = records(text);
      // e1 e2 e3×2 e4 e5 e6 e8 e9 e10 and r1–r4; the Draft e7 has none.
      expect(lines).toHaveLength(14);
      const e3 = lines.filter((l) => l.entitlementId === seeded.ids.e3);
      expect(e3.map((l) => [l.planName, l.from, l.to, l.monthsActive, l.revenue, l.currency])).toEqual([
        ["Pro", "2025-01-01T00:00:00.000Z", "2025-04-01T00:00:00.000Z", "3.000000", "76.500000", "EUR"],
        ["Team", "2025-04-01T00:00:00.000Z", "2025-07-01T00:00:00.000Z", "3.000000", "300.000000", "USD"],
      ]);
      const e9 = lines.find((l) => l.entitlementId === seeded.ids.e9)!;
      expect([e9.monthsActive, e9.revenue]).toEqual(["5.000000", "50.000000"]);
      expect(lines.find((l) => l.entitlementId === seeded.ids.e6)).toMatchObject({
        isEntitlementTrial: "true",
        revenue: "",
      });
      expect(lines.find((l) => l.entitlementId === seeded.ids.e4)).toMatchObject({
        monthlyPrice: "",
        revenue: "",
      });
      expect(lines.some((l) => l.entitlementId === seeded.ids.e7)).toBe(false);
    });
  });

  describe("seat utilisation and activations", () => {
    let s1: string;
    let s2: string;
    const MARCH = "from=2025-03-01&to=2025-03-04&interval=day";

    beforeAll(async () => {
      const ctx = systemContext(testDb(), tenant.tenantId, "test");
      s1 = (
        await insertLicense(ctx, {
          name: "Two seats",
          seats: 2,
          inForceFrom: "2025-01-01T00:00:00Z",
          isAnonymousTry: true,
        })
      ).id;
      s2 = (
        await insertLicense(ctx, {
          name: "Three seats",
          seats: 3,
          inForceFrom: "2025-03-02T00:00:00Z",
          isEntitlementTrial: true,
        })
      ).id;
      await insertSessions(testDb(), tenant.tenantId, [
        {
          entitlementId: s1,
          device: "f",
          activatedAt: "2025-02-28T20:00:00Z",
          seatHeldUntil: "2025-03-01T02:00:00Z",
        },
        {
          entitlementId: s1,
          device: "x1",
          activatedAt: "2025-03-01T10:00:00Z",
          seatHeldUntil: "2025-03-02T10:00:00Z",
        },
        {
          entitlementId: s1,
          device: "x2",
          activatedAt: "2025-03-01T12:00:00Z",
          seatHeldUntil: "2025-03-01T18:00:00Z",
          revokedAt: "2025-03-01T14:00:00Z",
        },
        {
          entitlementId: s2,
          device: "y1",
          activatedAt: "2025-03-02T08:00:00Z",
          seatHeldUntil: "2025-03-03T08:00:00Z",
        },
        {
          entitlementId: s2,
          device: "y2",
          activatedAt: "2025-03-02T09:00:00Z",
          seatHeldUntil: "2025-03-02T10:00:00Z",
          activationKind: "Offline",
        },
        {
          entitlementId: s2,
          device: "y1",
          activatedAt: "2025-03-02T10:00:00Z",
          seatHeldUntil: "2025-03-02T11:00:00Z",
        },
      ]);
    });

    /*
     * Day 1: f (cut at 1 Mar) 00–02, x1 from 10:00, x2 12–14 (revoked before its hold ran out): peak 2.
     * Day 2: x1 until 10:00, y1 from 08:00 (2), y2 09–10 (3); at 10:00 x1 and y2 end as the next
     * session starts (half-open: 2, never 4): peak 3. Day 3: y1 until 08:00: peak 1 (carried).
     * Seats in force: 2, then 2 + 3 from 2 Mar.
     */
    it("seat utilisation: per bucket the most seats held at once against the seats in force (hand-computed)", async () => {
      const res = await request("GET", `${REPORTS}/seat-utilization?${MARCH}`, { token });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.buckets.map((b: Record<string, unknown>) => [
          b.from,
          b.peakSeatsInUse,
          b.seatCapacity,
          b.utilization,
        ]),
      ).toEqual([
        ["2025-03-01T00:00:00.000Z", 2, 2, 1],
        ["2025-03-02T00:00:00.000Z", 3, 5, 0.6],
        ["2025-03-03T00:00:00.000Z", 1, 5, 0.2],
      ]);
      expect(res.body.summary).toEqual({
        peakSeatsInUse: 3,
        peakSeatCapacity: 5,
        entitlementsWithSessions: 2,
        entitlementsAtCapacity: 1,
      });
      expect(res.body.mostUtilized).toEqual([
        {
          entitlementId: s1,
          entitlementName: "Two seats",
          numberOfSeats: 2,
          peakSeatsInUse: 2,
          sessions: 3,
          utilization: 1,
        },
        {
          entitlementId: s2,
          entitlementName: "Three seats",
          numberOfSeats: 3,
          peakSeatsInUse: 2,
          sessions: 3,
          utilization: 0.6667,
        },
      ]);
    });

    it("seat utilisation narrows to one entitlement", async () => {
      const { body } = await request("GET", `${REPORTS}/seat-utilization?${MARCH}&entitlementId=${s2}`, {
        token,
      });
      expect(
        body.buckets.map((b: { peakSeatsInUse: number; seatCapacity: number }) => [
          b.peakSeatsInUse,
          b.seatCapacity,
        ]),
      ).toEqual([
        [0, 0],
        [2, 3],
        [1, 3],
      ]);
      expect(body.entitlementId).toBe(s2);
    });

    it("activations over time: sessions started per bucket, distinct devices and licenses, offline, trial and anonymous-try activations", async () => {
      const res = await request("GET", `${REPORTS}/activations?${MARCH}`, { token });
      expect(res.status, res.text).toBe(200);
      const counts = res.body.buckets.map(({ from: _f, to: _t, ...c }: Record<string, unknown>) => c);
      expect(counts).toEqual([
        { activations: 2, devices: 2, entitlements: 1, offline: 0, trial: 0, anonymousTry: 2 },
        { activations: 3, devices: 2, entitlements: 1, offline: 1, trial: 3, anonymousTry: 0 },
        { activations: 0, devices: 0, entitlements: 0, offline: 0, trial: 0, anonymousTry: 0 },
      ]);
      expect(res.body.totals).toEqual({
        activations: 5,
        devices: 4,
        entitlements: 2,
        offline: 1,
        trial: 3,
        anonymousTry: 2,
      });
    });

    it("the seat-utilisation and activations CSVs list every license and every session started", async () => {
      const csv = async (path: string) => {
        const res = await request("GET", path, { token });
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
        return records(res.text);
      };
      const seats = await csv(`${REPORTS}/seat-utilization/csv?${MARCH}`);
      expect(seats.map((r) => [r.entitlementName, r.peakSeatsInUse, r.utilization])).toEqual([
        ["Two seats", "2", "1"],
        ["Three seats", "2", "0.6667"],
      ]);
      const activations = await csv(`${REPORTS}/activations/csv?${MARCH}`);
      expect(activations.map((r) => [r.activatedAt, r.activationKind])).toEqual([
        ["2025-03-01T10:00:00.000Z", "Online"],
        ["2025-03-01T12:00:00.000Z", "Online"],
        ["2025-03-02T08:00:00.000Z", "Online"],
        ["2025-03-02T09:00:00.000Z", "Offline"],
        ["2025-03-02T10:00:00.000Z", "Online"],
      ]);
    });

    it("a CSV export longer than one cursor batch streams every row, in order", async () => {
      const ctx = systemContext(testDb(), tenant.tenantId, "test");
      const busy = await insertLicense(ctx, {
        name: "Busy",
        seats: 5000,
        inForceFrom: "2024-01-01T00:00:00Z",
      });
      const device = await testDb().device.create({
        data: { tenantId: tenant.tenantId, entitlementId: busy.id, fingerprintHash: `busy-${randomUUID()}` },
      });
      const start = Date.parse("2024-06-01T00:00:00Z");
      await testDb().licenseSession.createMany({
        data: Array.from({ length: 2500 }, (_, i) => ({
          tenantId: tenant.tenantId,
          entitlementId: busy.id,
          deviceId: device.id,
          productIds: [],
          activatedAt: new Date(start + i * 60_000),
          leaseExpiresAt: new Date(start + i * 60_000 + 3_600_000),
          graceExpiresAt: new Date(start + i * 60_000 + 3_600_000),
          seatHeldUntil: new Date(start + i * 60_000 + 3_600_000),
        })),
      });
      const res = await request(
        "GET",
        `${REPORTS}/activations/csv?from=2024-06-01&to=2024-06-03&entitlementId=${busy.id}`,
        {
          token,
        },
      );
      expect(res.status).toBe(200);
      const rows = records(res.text);
      expect(rows).toHaveLength(2500);
      expect(rows[0].activatedAt).toBe("2024-06-01T00:00:00.000Z");
      expect(rows[2499].activatedAt).toBe(new Date(start + 2499 * 60_000).toISOString());
      const { body } = await request(
        "GET",
        `${REPORTS}/activations?from=2024-06-01&to=2024-06-03&interval=day&entitlementId=${busy.id}`,
        {
          token,
        },
      );
      expect(body.buckets.map((b: { activations: number }) => b.activations)).toEqual([1440, 1060]);
    });
  });

  describe("rules every report shares", () => {
    it("an empty or reversed period is 400 report.invalid_period; too many buckets is 400 report.too_many_buckets; bad values are 400 license.validation_error", async () => {
      for (const path of ["revenue", "seat-utilization", "activations", "revenue/csv", "activations/csv"]) {
        expectProblem(
          await request("GET", `${REPORTS}/${path}?from=2025-03-01&to=2025-03-01`, { token }),
          400,
          "report.invalid_period",
        );
      }
      expectProblem(
        await request("GET", `${REPORTS}/revenue?from=2010-01-01&to=2025-01-01`, { token }),
        400,
        "report.invalid_period",
      );
      expectProblem(
        await request("GET", `${REPORTS}/activations?from=2023-01-01&to=2025-01-01&interval=day`, { token }),
        400,
        "report.too_many_buckets",
      );
      expectProblem(
        await request("GET", `${REPORTS}/seat-utilization?from=2023-01-01&to=2025-01-01&interval=day`, {
          token,
        }),
        400,
        "report.too_many_buckets",
      );
      for (const query of ["from=yesterday", "interval=hour", "entitlementId=nope", "to=2025-13-01"]) {
        expectProblem(
          await request("GET", `${REPORTS}/activations?${query}`, { token }),
          400,
          "license.validation_error",
        );
      }
    });

    it("without a period a report covers the last twelve calendar months including the current one", async () => {
      const { body } = await request("GET", `${REPORTS}/activations`, { token });
      const now = new Date();
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      expect(body.to).toBe(nextMonth.toISOString());
      expect(body.buckets).toHaveLength(12);
      expect(body.interval).toBe("month");
    });

    it("reports need provision.report.read: 401 without a token, 403 with another resource's scope", async () => {
      for (const path of [
        "revenue",
        "revenue/csv",
        "seat-utilization",
        "seat-utilization/csv",
        "activations",
        "activations/csv",
      ]) {
        expectProblem(await request("GET", `${REPORTS}/${path}`), 401, "auth.unauthenticated");
        const wrong = await tenant.token("provision.entitlement-adm.read");
        expectProblem(
          await request("GET", `${REPORTS}/${path}`, { token: wrong }),
          403,
          "auth.insufficient_scope",
        );
      }
    });

    it("a tenant's reports hold only its own data", async () => {
      const foreign = await other.token("provision.report.*");
      const revenue = (await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token: foreign })).body;
      expect(revenue).toMatchObject({
        totals: [],
        revenueByPlan: [],
        unpricedPlans: [],
        relativeSharesByPlan: [],
      });
      const seats = (
        await request("GET", `${REPORTS}/seat-utilization?from=2025-03-01&to=2025-03-04&interval=day`, {
          token: foreign,
        })
      ).body;
      expect(seats.summary).toEqual({
        peakSeatsInUse: 0,
        peakSeatCapacity: 0,
        entitlementsWithSessions: 0,
        entitlementsAtCapacity: 0,
      });
      const csv = await request("GET", `${REPORTS}/revenue/csv?${H1_2025}`, { token: foreign });
      expect(records(csv.text)).toEqual([]);
    });

    it("the OpenAPI document lists every report with its scope, the CSV exports as text/csv", async () => {
      const { body } = await request("GET", "/api/v1/openapi.json");
      for (const path of ["revenue", "seat-utilization", "activations"]) {
        const json = body.paths[`${REPORTS}/${path}`].get;
        expect(json["x-required-scope"]).toBe("provision.report.read");
        expect(json.responses["200"].content["application/json"]).toBeDefined();
        const csv = body.paths[`${REPORTS}/${path}/csv`].get;
        expect(csv.responses["200"].content["text/csv"]).toBeDefined();
        expect(csv["x-required-scope"]).toBe("provision.report.read");
      }
    });
  });
});
