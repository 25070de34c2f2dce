import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { consume, meteredLicense, ok200 } from "../../helpers/metering.ts";
import { trpcQuery } from "../../helpers/ui-session.ts";
import { staffCookie } from "../../helpers/staff-session.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { StaffRole } from "../../../server/domain/identity/staff-roles/staff-roles.ts";

/**
 * reports.fleetUsage, the back office's Usage page: one metric across every license of the tenant
 * (usage per bucket, top consumers, severity bands), for every staff role; another tenant's usage
 * never shows; bad input is a 400 and nothing else.
 */

const PASSWORD = "Fleet-usage-pass-1";
type Usage = {
  metrics: string[];
  metricName: string | null;
  total: string;
  series: { from: string; usage: string }[];
  topConsumers: { entitlementId: string; entitlementName: string; usage: string }[];
  bands: {
    severity: string;
    count: number;
    items: { entitlementName: string; metricName: string; kind: string }[];
  }[];
};

const staff = (t: TestTenant, role: StaffRole) =>
  staffCookie(t, role, `${role}-${randomUUID().slice(0, 8)}@fleet-usage.example.com`, PASSWORD);

const metric = `renders-${randomUUID().slice(0, 6)}`;
const monthly = { metricName: metric, metered: { consumptionPeriod: "month" } };
let tenant: TestTenant;
let other: TestTenant;
const cookies = {} as Record<StaffRole | "otherAdmin", string>;
let big: { id: string; name: string };
let small: { id: string; name: string };

beforeAll(async () => {
  tenant = await createTestTenant("Fleet usage");
  other = await createTestTenant("Fleet usage other");
  for (const role of ["admin", "support", "read-only"] as const) cookies[role] = await staff(tenant, role);
  cookies.otherAdmin = await staff(other, "admin");

  const a = await meteredLicense(tenant, { metrics: [monthly], entitlement: { name: "Big studio" } });
  const b = await meteredLicense(tenant, { metrics: [monthly], entitlement: { name: "Small studio" } });
  // The other tenant's license uses the same metric name, and far more of it.
  const c = await meteredLicense(other, { metrics: [monthly], entitlement: { name: "Elsewhere" } });
  ok200(await consume(await a.session(), metric, 30));
  ok200(await consume(await a.session(), metric, 0.25));
  ok200(await consume(await b.session(), metric, 12.5));
  ok200(await consume(await c.session(), metric, 1000));
  big = { id: a.entitlement.id, name: "Big studio" };
  small = { id: b.entitlement.id, name: "Small studio" };
  // The small studio's meter is past its allowance now (the severity a consume over a tier sets).
  await tenantDb(testDb(), tenant.tenantId).meteredUsage.update({
    where: { id: b.assets[metric].meteredUsageId! },
    data: { lastReportedOverageSeverityStatus: "Critical" },
  });
});

describe("reports.fleetUsage", () => {
  it("sums the metric across the tenant's licenses in the current month, ranks the consumers and bands the severities", async () => {
    const res = await trpcQuery<Usage>("reports.fleetUsage", { metricName: metric }, cookies["read-only"]);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    const u = res.data!;
    expect(u.metricName).toBe(metric);
    expect(u.metrics).toContain(metric);
    expect(u.total).toBe("42.75");
    // Twelve months by default, the current one last.
    expect(u.series).toHaveLength(12);
    expect(u.series[11].usage).toBe("42.75");
    expect(u.series.slice(0, 11).every((b) => b.usage === "0")).toBe(true);
    expect(u.topConsumers).toEqual([
      { entitlementId: big.id, entitlementName: "Big studio", usage: "30.25" },
      { entitlementId: small.id, entitlementName: "Small studio", usage: "12.5" },
    ]);
    expect(u.bands.map((b) => [b.severity, b.count])).toEqual([
      ["Critical", 1],
      ["High", 0],
      ["Medium", 0],
      ["Low", 0],
    ]);
    expect(u.bands[0].items).toEqual([
      { entitlementId: small.id, entitlementName: "Small studio", metricName: metric, kind: "meter" },
    ]);
  });

  it("every staff role reads it; without a session it is 401", async () => {
    for (const role of ["admin", "support", "read-only"] as const) {
      const res = await trpcQuery<Usage>("reports.fleetUsage", { metricName: metric }, cookies[role]);
      expect(res.status, role).toBe(200);
      expect(res.data?.total, role).toBe("42.75");
    }
    expect((await trpcQuery("reports.fleetUsage", { metricName: metric }, "")).status).toBe(401);
  });

  it("another tenant sees only its own usage of the same metric name", async () => {
    const res = await trpcQuery<Usage>("reports.fleetUsage", { metricName: metric }, cookies.otherAdmin);
    expect(res.status).toBe(200);
    expect(res.data?.total).toBe("1000");
    expect(res.data?.topConsumers.map((t) => t.entitlementName)).toEqual(["Elsewhere"]);
    expect(res.data?.bands.every((b) => b.count === 0)).toBe(true);
  });

  it("a band counts every flagged meter and lists the first 20 by license name and metric", async () => {
    const crowded = await createTestTenant("Fleet usage crowded");
    const admin = await staff(crowded, "admin");
    const names = Array.from({ length: 23 }, (_, i) => `m-${String(i + 1).padStart(2, "0")}`);
    const license = await meteredLicense(crowded, {
      metrics: names.map((metricName) => ({ metricName, metered: { consumptionPeriod: "month" } })),
      entitlement: { name: "Crowded studio" },
    });
    const db = tenantDb(testDb(), crowded.tenantId);
    for (const [i, name] of names.entries())
      await db.meteredUsage.update({
        where: { id: license.assets[name].meteredUsageId! },
        data: { lastReportedOverageSeverityStatus: i === 22 ? "Low" : "High" },
      });
    const res = await trpcQuery<Usage>("reports.fleetUsage", {}, admin);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.data!.bands.map((b) => [b.severity, b.count, b.items.length])).toEqual([
      ["Critical", 0, 0],
      ["High", 22, 20],
      ["Medium", 0, 0],
      ["Low", 1, 1],
    ]);
    expect(res.data!.bands[1].items.map((item) => item.metricName)).toEqual([
      "m-01",
      "m-02",
      "m-03",
      "m-04",
      "m-05",
      "m-06",
      "m-07",
      "m-08",
      "m-09",
      "m-10",
      "m-11",
      "m-12",
      "m-13",
      "m-14",
      "m-15",
      "m-16",
      "m-17",
      "m-18",
      "m-19",
      "m-20",
    ]);
    expect(res.data!.bands[3].items).toEqual([
      {
        entitlementId: license.entitlement.id,
        entitlementName: "Crowded studio",
        metricName: "m-23",
        kind: "meter",
      },
    ]);
  });

  it("bad input is a 400 with a plain message", async () => {
    const empty = await trpcQuery("reports.fleetUsage", { metricName: "" }, cookies.admin);
    expect(empty.status).toBe(400);
    const interval = await trpcQuery("reports.fleetUsage", { interval: "year" }, cookies.admin);
    expect(interval.status).toBe(400);
    const backwards = await trpcQuery<Usage>(
      "reports.fleetUsage",
      { from: "2026-05-01", to: "2026-01-01" },
      cookies.admin,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.error?.message).toBe("`from` must be before `to`.");
  });
});
