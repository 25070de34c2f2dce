import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  insertLicense,
  insertSessions,
  seedRevenueData,
  seedValueData,
} from "../../helpers/report-fixtures.ts";
import { csvRecords as records, parseCsv } from "../../helpers/csv.ts";
import { uiSignIn } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";

const REPORTS = "/api/v1/provision/admin/reports";
const H1_2025 = "from=2025-01-01&to=2025-07-01";
const MARCH = "from=2025-03-01&to=2025-03-04&interval=day";

/*
 * Report isolation: every report reads only its own tenant's rows. The owner has a revenue history
 * (H1 2025), two sessions and metered usage in early March 2025; the foreign tenant has none. The
 * owner's reports are read first, so the data is known to be there and to be counted, then every
 * report and every CSV of the foreign tenant over the same periods must be empty. A report whose
 * SQL lost its tenant condition hands the owner's figures to the foreign tenant and fails here
 * (docs/testing.md "Tests named after a rule").
 */
describe("a tenant's reports hold only its own data, even when another tenant has data in the same periods", () => {
  let owner: TestTenant;
  let foreign: TestTenant;
  let ownerToken: string;
  let foreignToken: string;

  beforeAll(async () => {
    owner = await createTestTenant("Report owner");
    foreign = await createTestTenant("Report stranger");
    ownerToken = await owner.token("provision.report.read");
    foreignToken = await foreign.token("provision.report.read");
    await seedRevenueData(testDb(), owner.tenantId);
    await seedValueData(testDb(), owner.tenantId);
    const license = await insertLicense(systemContext(testDb(), owner.tenantId, "isolation-test"), {
      name: "Owner's floating license",
      seats: 2,
      inForceFrom: "2025-01-01T00:00:00Z",
    });
    await insertSessions(testDb(), owner.tenantId, [
      {
        entitlementId: license.id,
        device: "a",
        activatedAt: "2025-03-01T10:00:00Z",
        seatHeldUntil: "2025-03-01T12:00:00Z",
      },
      {
        entitlementId: license.id,
        device: "b",
        activatedAt: "2025-03-02T09:00:00Z",
        seatHeldUntil: "2025-03-02T10:00:00Z",
        activationKind: "Offline",
      },
    ]);
  });

  const get = async (path: string, token: string) => {
    const res = await request("GET", `${REPORTS}/${path}`, { token });
    expect(res.status, res.text).toBe(200);
    return res;
  };

  it("activations and its CSV", async () => {
    const mine = (await get(`activations?${MARCH}`, ownerToken)).body;
    expect(mine.totals).toEqual({
      activations: 2,
      devices: 2,
      entitlements: 1,
      offline: 1,
      trial: 0,
      anonymousTry: 0,
    });

    const theirs = (await get(`activations?${MARCH}`, foreignToken)).body;
    const empty = { activations: 0, devices: 0, entitlements: 0, offline: 0, trial: 0, anonymousTry: 0 };
    expect(theirs.totals).toEqual(empty);
    expect(theirs.buckets.map(({ from: _f, to: _t, ...counts }: Record<string, unknown>) => counts)).toEqual([
      empty,
      empty,
      empty,
    ]);
    expect(records((await get(`activations/csv?${MARCH}`, foreignToken)).text)).toEqual([]);
  });

  it("seat utilisation and its CSV", async () => {
    const mine = (await get(`seat-utilization?${MARCH}`, ownerToken)).body;
    expect(mine.summary).toMatchObject({ peakSeatsInUse: 1, entitlementsWithSessions: 1 });

    const theirs = (await get(`seat-utilization?${MARCH}`, foreignToken)).body;
    expect(theirs.summary).toEqual({
      peakSeatsInUse: 0,
      peakSeatCapacity: 0,
      entitlementsWithSessions: 0,
      entitlementsAtCapacity: 0,
    });
    expect(
      theirs.buckets.map((b: { peakSeatsInUse: number; seatCapacity: number }) => [
        b.peakSeatsInUse,
        b.seatCapacity,
      ]),
    ).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
    expect(theirs.mostUtilized).toEqual([]);
    expect(records((await get(`seat-utilization/csv?${MARCH}`, foreignToken)).text)).toEqual([]);
  });

  it("revenue, MRR and the revenue CSV", async () => {
    const mine = (await get(`revenue?${H1_2025}`, ownerToken)).body;
    expect(mine.totals).toEqual([
      { currency: "EUR", revenue: 252 },
      { currency: "USD", revenue: 300 },
    ]);

    const theirs = (await get(`revenue?${H1_2025}`, foreignToken)).body;
    expect(theirs).toMatchObject({
      totals: [],
      revenueByPlan: [],
      revenueByProduct: [],
      revenueByCustomer: [],
      unpricedPlans: [],
      relativeSharesByPlan: [],
      relativeSharesByProduct: [],
      unweightedPlans: [],
      monthlyRecurringRevenue: [],
      trials: { entitlementCount: 0, monthsActive: 0 },
    });
    expect(records((await get(`revenue/csv?${H1_2025}`, foreignToken)).text)).toEqual([]);
  });

  it("the back office's MRR CSV", async () => {
    const mrr = async (tenant: TestTenant) => {
      const { cookie } = await uiSignIn("staff", {
        email: tenant.adminEmail,
        password: tenant.adminPassword,
      });
      const res = await fetch(`${baseUrl()}/admin/reports/export/mrr?${H1_2025}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      return parseCsv(await res.text());
    };
    // Six months in EUR and six in USD for the owner; the header alone for the stranger.
    expect(await mrr(owner)).toHaveLength(13);
    expect(await mrr(foreign)).toEqual([
      ["month", "currency", "mrr", "new", "expansion", "contraction", "churn", "entitlementCount"],
    ]);
  });

  it("value delivered and its CSV", async () => {
    const mine = (await get(`value-delivered?${MARCH}`, ownerToken)).body;
    // api-calls: 100 + 60 consumed and 40 uploaded, valueScore 0.5 → 100.
    expect(mine.totalValue).toBe(100);

    const theirs = (await get(`value-delivered?${MARCH}`, foreignToken)).body;
    expect(theirs.totalValue).toBe(0);
    expect(theirs.features).toEqual([]);
    expect(records((await get(`value-delivered/csv?${MARCH}`, foreignToken)).text)).toEqual([]);
  });
});
