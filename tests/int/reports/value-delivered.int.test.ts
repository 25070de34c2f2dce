import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { consume, meteredLicense, ok200, record, uploadEntitlement } from "../../helpers/metering.ts";

const REPORT = "/api/v1/provision/admin/reports/value-delivered";
const CATALOG = "/api/v1/provision/admin/feature-catalog";
const DAY = 86_400_000;

/** A CSV document (no quoted cells in these figures) as records keyed by the header. */
const records = (text: string) => {
  const [header, ...rows] = text
    .split("\r\n")
    .filter(Boolean)
    .map((l) => l.split(","));
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
};

describe("value delivered per feature (GET /admin/reports/value-delivered)", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let catalogToken: string;
  let features: Record<string, { featureCatalogId: string; featureCode: string }>;
  let second: { entitlement: { id: string } };
  const today = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z").getTime();
  const day = (offset: number, hour = 10) => new Date(today + offset * DAY + hour * 3_600_000);
  const date = (offset: number) => new Date(today + offset * DAY).toISOString().slice(0, 10);
  // Six daily buckets: four days back to two ahead (a consume made now lands in today's).
  const period = `from=${date(-4)}&to=${date(2)}&interval=day`;

  const setValueScore = async (metricName: string, valueScore: number | null) => {
    const id = features[metricName].featureCatalogId;
    const entry = ok200(await request("GET", `${CATALOG}/${id}`, { token: catalogToken }));
    ok200(
      await request("PUT", `${CATALOG}/${id}`, {
        token: catalogToken,
        body: {
          name: entry.name,
          units: entry.units,
          metricName: entry.metricName,
          featureType: entry.featureType,
          visibility: entry.visibility,
          meterAggregationType: entry.meterAggregationType,
          valueScore,
          enumOptions: entry.enumOptions,
          tags: null,
        },
      }),
    );
  };
  const report = async (query = period, t = token) =>
    ok200(await request("GET", `${REPORT}?${query}`, { token: t }));
  const feature = (body: { features: { metricName: string }[] }, metricName: string) =>
    body.features.find((f) => f.metricName === metricName);

  /*
   * Seeded usage (UTC days; D-3 is three days before today):
   *   api-calls (CumulativeCounter): license 1 uploads 100 on D-3 and 50 on D-2, consumes 20 now;
   *     license 2 uploads 30 on D-2; an upload on D-10 lies before the period → 100 | 80 | 20, 200.
   *   storage-gb (Gauge, levels): license 1 reads 5 then 8 on D-3 and 3 on D-2 → the highest
   *     reading per span: 8 | 3, and 8 over the whole period (levels do not add up).
   *   exports (CumulativeCounter): 7 on D-3; its valueScore is null.
   * valueScores: api-calls 0.5, storage-gb 2, exports null →
   *   api-calls 100, storage-gb 16, total 116 (shares 0.862069 and 0.137931);
   *   per day: D-3 50 + 16 = 66, D-2 40 + 6 = 46, today 10.
   * Another tenant with the same metric name and usage must not show up.
   */
  beforeAll(async () => {
    tenant = await createTestTenant("Value delivered");
    other = await createTestTenant("Value delivered other");
    token = await tenant.token("provision.report.read");
    catalogToken = await tenant.token("provision.feature-catalog.*");
    const usageToken = await tenant.token("provision.usage.create");
    const first = await meteredLicense(tenant, {
      metrics: [
        { metricName: "api-calls", metered: {} },
        { metricName: "storage-gb", metricType: "Gauge", metered: {} },
        { metricName: "exports", metered: {} },
      ],
      features: [
        { metricName: "api-calls", value: null, name: "API" },
        { metricName: "storage-gb", value: null, name: "Storage" },
        { metricName: "exports", value: null, name: "Exports" },
      ],
    });
    features = first.features;
    second = await meteredLicense(tenant, { metrics: [{ metricName: "api-calls", metered: {} }] });
    const counted = (res: Awaited<ReturnType<typeof uploadEntitlement>>, n: number) =>
      expect(ok200(res).counted).toBe(n);
    const at = (metricName: string, amount: number, creationDateTime: Date) =>
      record({ eventName: metricName, eventData: { amount }, creationDateTime });
    counted(
      await uploadEntitlement(usageToken, first.entitlement.id, [
        at("api-calls", 100, day(-3)),
        at("api-calls", 50, day(-2)),
        at("api-calls", 1000, day(-10)),
        at("storage-gb", 5, day(-3, 9)),
        at("storage-gb", 8, day(-3, 12)),
        at("storage-gb", 3, day(-2)),
        at("exports", 7, day(-3)),
      ]),
      7,
    );
    counted(await uploadEntitlement(usageToken, second.entitlement.id, [at("api-calls", 30, day(-2))]), 1);
    const session = await first.session();
    expect(ok200(await consume(session, "api-calls", 20)).allowed).toBe(true);
    await setValueScore("api-calls", 0.5);
    await setValueScore("storage-gb", 2);

    const theirs = await meteredLicense(other, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: null }],
    });
    counted(
      await uploadEntitlement(await other.token("provision.usage.create"), theirs.entitlement.id, [
        at("api-calls", 500, day(-3)),
      ]),
      1,
    );
  });

  it("value delivered per feature is usage × valueScore (hand-computed); a null valueScore contributes nothing and is listed apart", async () => {
    const body = await report();
    expect(body).toMatchObject({ from: `${date(-4)}T00:00:00.000Z`, interval: "day", totalValue: 116 });
    expect(body.features).toEqual([
      expect.objectContaining({
        featureCatalogId: features["api-calls"].featureCatalogId,
        featureCode: features["api-calls"].featureCode,
        name: "API",
        metricName: "api-calls",
        usage: 200,
        valueScore: 0.5,
        value: 100,
        share: 0.862069,
      }),
      expect.objectContaining({
        metricName: "storage-gb",
        usage: 8,
        valueScore: 2,
        value: 16,
        share: 0.137931,
      }),
    ]);
    expect(body.unvaluedFeatures).toEqual([
      expect.objectContaining({ metricName: "exports", name: "Exports", usage: 7 }),
    ]);
    expect(body.unvaluedFeatures[0]).not.toHaveProperty("value");
  });

  it("value delivered over time: per day each feature's usage and value; a level metric counts its highest reading", async () => {
    const body = await report();
    expect(body.buckets.map((b: { value: number }) => b.value)).toEqual([0, 66, 46, 0, 10, 0]);
    const onDay = (i: number) =>
      Object.fromEntries(
        body.buckets[i].features.map(
          (f: { featureCatalogId: string; usage: number; value: number | null }) => [
            Object.keys(features).find((m) => features[m].featureCatalogId === f.featureCatalogId),
            [f.usage, f.value],
          ],
        ),
      );
    expect(onDay(1)).toEqual({ "api-calls": [100, 50], "storage-gb": [8, 16], exports: [7, null] });
    expect(onDay(2)).toEqual({ "api-calls": [80, 40], "storage-gb": [3, 6] });
    expect(onDay(4)).toEqual({ "api-calls": [20, 10] });
  });

  it("a valueScore change re-values history: the report applies the valueScore as it is when generated", async () => {
    await setValueScore("api-calls", 1.5);
    await setValueScore("storage-gb", null);
    try {
      const body = await report();
      expect(body.totalValue).toBe(300);
      expect(feature(body, "api-calls")).toMatchObject({ usage: 200, valueScore: 1.5, value: 300, share: 1 });
      expect(body.features).toHaveLength(1);
      expect(body.unvaluedFeatures.map((f: { metricName: string }) => f.metricName).sort()).toEqual([
        "exports",
        "storage-gb",
      ]);
      expect(body.buckets.map((b: { value: number }) => b.value)).toEqual([0, 150, 120, 0, 30, 0]);
    } finally {
      await setValueScore("api-calls", 0.5);
      await setValueScore("storage-gb", 2);
    }
    expect((await report()).totalValue).toBe(116);
  });

  it("value delivered narrows to one entitlement's meters", async () => {
    const body = await report(`${period}&entitlementId=${second.entitlement.id}`);
    expect(body.totalValue).toBe(15);
    expect(feature(body, "api-calls")).toMatchObject({ usage: 30, value: 15, share: 1 });
    expect(feature(body, "storage-gb")).toMatchObject({ usage: 0, value: 0 });
  });

  it("the value-delivered CSV streams one line per feature and day with usage, value empty when not valued", async () => {
    const res = await request("GET", `${REPORT}/csv?${period}`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toContain(`value-delivered_${date(-4)}_${date(2)}.csv`);
    expect(res.text.split("\r\n")[0]).toBe(
      "from,to,featureCatalogId,featureCode,featureName,productId,metricName,units,valueScore,usage,value",
    );
    const lines = records(res.text).map((r) => [
      r.from.slice(0, 10),
      r.metricName,
      r.valueScore,
      r.usage,
      r.value,
    ]);
    expect(lines).toHaveLength(6);
    expect(lines).toEqual(
      expect.arrayContaining([
        [date(-3), "api-calls", "0.5", "100.000000", "50.000000"],
        [date(-3), "storage-gb", "2", "8.000000", "16.000000"],
        [date(-3), "exports", "", "7.000000", ""],
        [date(-2), "api-calls", "0.5", "80.000000", "40.000000"],
        [date(-2), "storage-gb", "2", "3.000000", "6.000000"],
        [date(0), "api-calls", "0.5", "20.000000", "10.000000"],
      ]),
    );
  });

  it("value delivered needs provision.report.read and holds only the tenant's own usage", async () => {
    for (const path of [REPORT, `${REPORT}/csv`]) {
      expectProblem(await request("GET", `${path}?${period}`), 401, "auth.unauthenticated");
      const wrong = await tenant.token("provision.usage.read");
      expectProblem(
        await request("GET", `${path}?${period}`, { token: wrong }),
        403,
        "auth.insufficient_scope",
      );
    }
    const theirs = await report(period, await other.token("provision.report.read"));
    expect(theirs.features).toEqual([]);
    expect(theirs.unvaluedFeatures).toEqual([
      expect.objectContaining({ metricName: "api-calls", usage: 500 }),
    ]);
    const foreignNarrowing = await report(
      `${period}&entitlementId=${second.entitlement.id}`,
      await other.token("provision.report.read"),
    );
    expect(foreignNarrowing.unvaluedFeatures[0].usage).toBe(0);
    expectProblem(
      await request("GET", `${REPORT}?from=${date(2)}&to=${date(-4)}`, { token }),
      400,
      "report.invalid_period",
    );
  });

  it("the OpenAPI document lists the value-delivered report and its CSV with their scope", async () => {
    const { body } = await request("GET", "/api/v1/openapi.json");
    expect(body.paths[REPORT].get["x-required-scope"]).toBe("provision.report.read");
    expect(body.paths[`${REPORT}/csv`].get.responses["200"].content["text/csv"]).toBeDefined();
  });
});
