import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import {
  consume,
  meterConsumption,
  meteredLicense,
  meterUsage,
  ok200,
  overageTiers,
  record,
  uploadSession,
} from "../../helpers/metering.ts";

describe("usage reads", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Usage reads");
  });

  const license = () =>
    meteredLicense(tenant, {
      metrics: [
        {
          metricName: "api-calls",
          metered: {
            consumptionPeriod: "month",
            usageTiers: overageTiers(100, { quotaUsageLevel: "Medium" }),
          },
        },
        {
          metricName: "credits",
          balance: { totalCredits: 50, usageQuota: [{ endUsage: 10, name: "Low", quotaUsageLevel: "High" }] },
        },
        { metricName: "events" },
      ],
      features: [{ metricName: "api-calls", value: "100" }],
    });

  it("GET .../usage answers the current period's usage snapshot (consumed and uploaded, tier, severity, remaining)", async () => {
    const l = await license();
    const s = await l.session();
    ok200(await consume(s, "api-calls", 95));
    ok200(await uploadSession(s, [record({ eventName: "api-calls", eventData: { amount: 10 } })]));
    const usage = ok200(await meterUsage(s, "api-calls"));
    expect(usage).toMatchObject({
      entitlementId: l.entitlement.id,
      metricName: "api-calls",
      usageKind: "Metered",
      metricType: "CumulativeCounter",
      periodKey: expect.stringMatching(/^month:/),
      usage: 105,
      consumedUsage: 95,
      reportedUsage: 10,
      limit: 100,
      remaining: 0,
      tierName: "Overage",
      severity: "Medium",
      consumeCount: 1,
      recordCount: 1,
    });
    expect(ok200(await meterUsage(s, "credits"))).toMatchObject({
      usageKind: "Balance",
      usage: 5,
      limit: 50,
      remaining: 45,
    });
    expect(ok200(await meterUsage(s, "events"))).toMatchObject({
      usageKind: "Tracked",
      usage: 0,
      periodKey: "lifetime",
      limit: null,
    });
  });

  it("GET .../consumption answers what remains: the allowance and the balances the metric draws on", async () => {
    const l = await license();
    const s = await l.session();
    ok200(await consume(s, "api-calls", 104));
    const consumption = ok200(await meterConsumption(s, "api-calls"));
    expect(consumption).toMatchObject({ usage: 104, remaining: 0, severity: "Medium" });
    expect(consumption.balances).toEqual([
      expect.objectContaining({
        metricName: "credits",
        totalCredits: 50,
        creditsUsed: 4,
        remainingCredits: 46,
        cumulativeCreditsUsed: 4,
        unfundedCredits: 0,
        isUnlimitedCredits: false,
        initialCreditAmount: 50,
        severity: "None",
      }),
    ]);
    const own = ok200(await meterConsumption(s, "credits"));
    expect(own.balances.map((b: { metricName: string }) => b.metricName)).toEqual(["credits"]);
  });

  it("a usage read for a metric the license does not track answers 204", async () => {
    const l = await license();
    const s = await l.session();
    for (const read of [meterUsage, meterConsumption]) {
      const res = await read(s, "unknown-metric");
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
    }
  });

  it("reads need the session's own token (401) and answer 409 for a session that no longer exists", async () => {
    const l = await license();
    const s = await l.session();
    const other = await l.session();
    expectProblem(
      await request("GET", `/api/v1/provision/usage/${s.sessionId}/api-calls/usage`, { token: other.token }),
      401,
      "license.session_token_rejected",
    );
    await request("POST", `/api/v1/provision/activations/${s.sessionId}/release`, { token: s.token });
    expectProblem(await meterConsumption(s, "api-calls"), 409, "license.no_active_session");
    expectProblem(await meterUsage(s, "unknown-metric"), 409, "license.no_active_session");
  });

  it("the vendor backend reads an entitlement's meters (scope provision.usage.read); another tenant's entitlement is 404", async () => {
    const l = await license();
    const s = await l.session();
    ok200(await consume(s, "api-calls", 3));
    const token = await tenant.token("provision.usage.read");
    const meters = ok200(
      await request("GET", `/api/v1/provision/operational/entitlements/${l.entitlement.id}/meters`, {
        token,
      }),
    );
    expect(meters.map((m: { metricName: string; usageKind: string }) => [m.metricName, m.usageKind])).toEqual(
      [
        ["api-calls", "Metered"],
        ["credits", "Balance"],
        ["events", "Tracked"],
      ],
    );
    expect(meters[0].current).toMatchObject({ usage: 3, remaining: 97, tierName: "Included" });
    expect(meters[0].tiers.map((t: { name: string }) => t.name)).toEqual(["Included", "Overage"]);
    const other = await createTestTenant("Usage reads other");
    expectProblem(
      await request("GET", `/api/v1/provision/operational/entitlements/${l.entitlement.id}/meters`, {
        token: await other.token("provision.usage.read"),
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("GET", `/api/v1/provision/operational/entitlements/${l.entitlement.id}/meters`, {
        token: await tenant.token("provision.balance.read"),
      }),
      403,
      "auth.insufficient_scope",
    );
  });
});
