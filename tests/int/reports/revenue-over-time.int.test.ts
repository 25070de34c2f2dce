import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { seedRevenueData } from "../../helpers/report-fixtures.ts";
import { uiSignIn } from "../../helpers/ui-session.ts";
import { csvRecords as records } from "../../helpers/csv.ts";
import { setClock } from "../../../server/clock.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createEntitlement } from "../../../server/domain/entitlements/entitlement/create-entitlement.ts";
import { ZEntitlementCreateRequest } from "../../../server/domain/entitlements/entitlement/entitlement.schemas.ts";
import { assignPlan } from "../../../server/domain/entitlements/plans/assign-plan.ts";

const REPORTS = "/api/v1/provision/admin/reports";
const H1_2025 = "from=2025-01-01&to=2025-07-01";

/*
 * The reports' seeded history (tests/helpers/report-fixtures.ts) plus two plan moves, MRR taken at
 * each month's end (docs/decisions.md "Revenue over time"). Worked out by hand, EUR:
 *   Dec 2024 (opening): e1 Basic 10.
 *   Jan: e1 10, e3 Pro 25.5, e8 10, e9 10, x1 Basic 10, x2 Pro 25.5 = 91; new 81 (e3, e8, e9, x1, x2).
 *   Feb: e2 joins (10), e9 lapses (10): 91; new 10, churn 10.
 *   Mar: e9 back (renewed 1 Mar): new 10; e8 archived 1 Mar: churn 10; x1 Basic → Pro on 10 Mar:
 *        expansion 15.5 → 106.5.
 *   Apr: e2 expired 16 Apr (10) and e3 moved to Team in USD (25.5): churn 35.5 → 71.
 *   May: x2 Pro → Basic on 20 May: contraction 15.5 → 55.5.
 *   Jun: e10 valid from 1 Jun (Pro 25.5): new 25.5 → 81.
 * USD: e3 Team 100 from April: new 100 in April, then flat (every month of the period is listed
 * for every currency seen, 0 before April). Free, unpriced, relative, trial and
 * draft entitlements never count.
 */
describe("revenue over time (MRR per month with new, expansion, contraction, churn)", () => {
  let tenant: TestTenant;
  let token: string;

  beforeAll(async () => {
    tenant = await createTestTenant("MRR");
    token = await tenant.token("provision.report.read");
    const seeded = await seedRevenueData(testDb(), tenant.tenantId);
    const ctx = systemContext(testDb(), tenant.tenantId, "mrr-test");
    const absolute = seeded.planSets.absolute.id;
    const issue = (planName: string) =>
      createEntitlement(
        ctx,
        ZEntitlementCreateRequest.parse({
          name: `${planName} ${randomUUID().slice(0, 6)}`,
          productIds: [seeded.products.writer.id],
          planSetId: absolute,
          planName,
        }),
      );
    try {
      setClock({ fixed: new Date("2025-01-01T00:00:00Z") });
      const x1 = await issue("Basic");
      const x2 = await issue("Pro");
      setClock({ fixed: new Date("2025-03-10T12:00:00Z") });
      await assignPlan(ctx, x1.id, { planSetId: absolute, planName: "Pro", source: "ManualAdminAction" });
      setClock({ fixed: new Date("2025-05-20T08:00:00Z") });
      await assignPlan(ctx, x2.id, { planSetId: absolute, planName: "Basic", source: "ManualAdminAction" });
    } finally {
      setClock({ fixed: null });
    }
  });

  it("gives each month's MRR and its movements exactly, per currency", async () => {
    const res = await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token });
    expect(res.status, res.text).toBe(200);
    const rows = (res.body.monthlyRecurringRevenue as Record<string, unknown>[]).map((m) => [
      m.month,
      m.currency,
      m.mrr,
      m.new,
      m.expansion,
      m.contraction,
      m.churn,
    ]);
    expect(rows).toEqual([
      ["2025-01-01", "EUR", 91, 81, 0, 0, 0],
      ["2025-01-01", "USD", 0, 0, 0, 0, 0],
      ["2025-02-01", "EUR", 91, 10, 0, 0, 10],
      ["2025-02-01", "USD", 0, 0, 0, 0, 0],
      ["2025-03-01", "EUR", 106.5, 10, 15.5, 0, 10],
      ["2025-03-01", "USD", 0, 0, 0, 0, 0],
      ["2025-04-01", "EUR", 71, 0, 0, 0, 35.5],
      ["2025-04-01", "USD", 100, 100, 0, 0, 0],
      ["2025-05-01", "EUR", 55.5, 0, 0, 15.5, 0],
      ["2025-05-01", "USD", 100, 0, 0, 0, 0],
      ["2025-06-01", "EUR", 81, 25.5, 0, 0, 0],
      ["2025-06-01", "USD", 100, 0, 0, 0, 0],
    ]);
  });

  it("sums revenue by customer over the period (entitlements without a customer together)", async () => {
    const res = await request("GET", `${REPORTS}/revenue?${H1_2025}`, { token });
    // EUR: 91 + 91 + 106.5 + 71 + 55.5 + 81 = 496; USD: 3 × 100.
    expect(res.body.revenueByCustomer).toEqual([
      { customerId: null, customerName: null, currency: "EUR", revenue: 496, mrr: 81 },
      { customerId: null, customerName: null, currency: "USD", revenue: 300, mrr: 100 },
    ]);
  });

  it("downloads as CSV from the back office, one line per month and currency", async () => {
    const staff = (await uiSignIn("staff", { email: tenant.adminEmail, password: tenant.adminPassword }))
      .cookie;
    const res = await fetch(`${baseUrl()}/admin/reports/export/mrr?${H1_2025}`, {
      headers: { cookie: staff },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split("\r\n")[0]).toBe("month,currency,mrr,new,expansion,contraction,churn,entitlementCount");
    const lines = records(text);
    expect(lines).toHaveLength(12);
    expect(lines[4]).toEqual({
      month: "2025-03-01",
      currency: "EUR",
      mrr: "106.5",
      new: "10",
      expansion: "15.5",
      contraction: "0",
      churn: "10",
      entitlementCount: "6",
    });
  });
});
