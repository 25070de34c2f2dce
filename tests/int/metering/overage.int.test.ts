import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { captureSubscription, SUBS } from "../../helpers/webhook-fixtures.ts";
import { eventually, startWorker, stopWorker } from "../../helpers/webhooks.ts";
import {
  consume,
  meteredLicense,
  mediumAndCriticalBands,
  ok200,
  record,
  uploadSession,
  type MetricSpec,
} from "../../helpers/metering.ts";

const TYPE = "MeteredUsage.OverageStatusChanged";

describe("overage severity", () => {
  let tenant: TestTenant;
  let admin: string;
  let runner: Runner;

  beforeAll(async () => {
    tenant = await createTestTenant("Overage");
    admin = await tenant.token("provision.webhook.*");
    runner = await startWorker();
  });
  afterAll(async () => stopWorker(runner));

  const events = async (entityId: string) =>
    (
      await testDb().webhookEnvelope.findMany({
        where: { tenantId: tenant.tenantId, type: TYPE, entityId },
        orderBy: { createdAt: "asc" },
      })
    ).map(
      (e) => JSON.parse(e.payload) as { data: Record<string, unknown>; entitykind: string; subject: string },
    );

  const tiered = (extra: Record<string, unknown> = {}): MetricSpec => ({
    metricName: "api-calls",
    metered: {
      consumptionPeriod: "month",
      usageTiers: [
        { name: "Included", startUsage: 0, endUsage: 10 },
        {
          name: "Heavy",
          startUsage: 10,
          endUsage: 20,
          quotaUsageLevel: "Low",
          quotaUsagePolicy: "Notify",
        } as const,
        {
          name: "Overage",
          startUsage: 20,
          quotaUsageLevel: "High",
          quotaUsagePolicy: "AllowWithOverage",
        } as const,
      ],
      ...extra,
    },
  });

  it("MeteredUsage.OverageStatusChanged is emitted only when the severity changes, with the period in its data; lastReportedOverageSeverityStatus is kept", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [tiered()],
      entitlement: { claimBasedActivation: { leaseTime: "P400D" } },
    });
    const s = await license.session();
    const asset = license.assets["api-calls"];
    for (const amount of [5, 6, 1, 10]) ok200(await consume(s, "api-calls", amount));
    const sent = await events(asset.assetId);
    expect(
      sent.map((e) => [e.data.previousSeverity, e.data.severity, e.data.usage, e.data.tierName]),
    ).toEqual([
      ["None", "Low", 11, "Heavy"],
      ["Low", "High", 22, "Overage"],
    ]);
    const [first] = sent;
    expect(first.entitykind).toBe("monitored-asset");
    expect(first.subject).toBe(`monitored-assets/${asset.assetId}`);
    expect(first.data).toMatchObject({
      entitlementId: license.entitlement.id,
      monitoredAssetId: asset.assetId,
      metricName: "api-calls",
      usageKind: "Metered",
      limit: 10,
      periodKey: expect.stringMatching(/^month:/),
      periodStart: expect.any(String),
      periodEnd: expect.any(String),
      changedAtUtc: expect.any(String),
    });
    const metered = await testDb().meteredUsage.findUniqueOrThrow({ where: { id: asset.meteredUsageId! } });
    expect(metered.lastReportedOverageSeverityStatus).toBe("High");
    // Uploaded usage that keeps the severity sends nothing; the next period starts at None again.
    ok200(await uploadSession(s, [record({ eventName: "api-calls", eventData: { amount: 3 } })]));
    expect(await events(asset.assetId)).toHaveLength(2);
    const nextPeriod = new Date(first.data.periodEnd as string);
    ok200(await consume(s, "api-calls", 1, { headers: { "x-test-clock": nextPeriod.toISOString() } }));
    const after = await events(asset.assetId);
    expect(after.slice(2).map((e) => [e.data.previousSeverity, e.data.severity, e.data.periodStart])).toEqual(
      [["High", "None", nextPeriod.toISOString()]],
    );
  });

  it("uploaded usage that moves a meter into another tier reports the change too", async () => {
    const license = await meteredLicense(tenant, { metrics: [tiered()] });
    const s = await license.session();
    ok200(await uploadSession(s, [record({ eventName: "api-calls", eventData: { amount: 15 } })]));
    expect((await events(license.assets["api-calls"].assetId)).map((e) => e.data.severity)).toEqual(["Low"]);
  });

  it("a balance's severity follows its usageQuota band: consumption into a band and a top-up out of it each report a change", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [
        {
          metricName: "credits",
          balance: {
            totalCredits: 100,
            usageQuota: mediumAndCriticalBands,
          },
        },
      ],
    });
    const s = await license.session();
    ok200(await consume(s, "credits", 30));
    ok200(await consume(s, "credits", 30));
    ok200(await consume(s, "credits", 5));
    const deposit = await request(
      "POST",
      `/api/v1/provision/operational/entitlements/${license.entitlement.id}/balances/credits/deposit`,
      { token: await tenant.token("provision.balance.*"), body: { amount: 100 } },
    );
    expect(deposit.status, deposit.text).toBe(200);
    const sent = await events(license.assets.credits.assetId);
    expect(sent.map((e) => [e.data.usageKind, e.data.previousSeverity, e.data.severity])).toEqual([
      ["Balance", "None", "Medium"],
      ["Balance", "Medium", "None"],
    ]);
    const b = await testDb().balanceUsage.findUniqueOrThrow({
      where: { id: license.assets.credits.balanceUsageId! },
    });
    expect(b.overageSeverityStatus).toBe("None");
  });

  it("subscription filters by severity work for it: a severities filter receives only the matching changes; an unknown severity can never match (4034)", async () => {
    const bySeverity = await captureSubscription(admin, {
      eventTypePatterns: [TYPE],
      filters: { severities: ["High"], entityKinds: ["monitored-asset"] },
    });
    const all = await captureSubscription(admin, { eventTypePatterns: [TYPE] });
    expectProblem(
      await request("POST", SUBS, {
        token: admin,
        body: {
          displayName: "Never",
          targetKind: "Capture",
          eventTypePatterns: [TYPE],
          filters: { severities: ["Warning"] },
        },
      }),
      400,
      "subscription.invalid_filter",
    );
    const license = await meteredLicense(tenant, { metrics: [tiered()] });
    const s = await license.session();
    for (const amount of [11, 10]) ok200(await consume(s, "api-calls", amount));
    const captured = async (sub: string) =>
      (
        await request("GET", `${SUBS}/${sub}/captured-events?pageSize=100`, { token: admin })
      ).body.items.filter(
        (i: { envelope: { entityid: string } }) =>
          i.envelope.entityid === license.assets["api-calls"].assetId,
      );
    await eventually(async () => (await captured(all)).length === 2);
    const matched = await captured(bySeverity);
    expect(
      matched.map((i: { envelope: { data: { severity: string } } }) => i.envelope.data.severity),
    ).toEqual(["High"]);
  });
});
