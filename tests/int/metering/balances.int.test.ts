import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  insertEntitlement,
  insertEntitlementBalance,
  signedInConsumer,
} from "../../helpers/licensing-fixtures.ts";

const OP = "/api/v1/provision/operational/entitlements";
const path = (id: string, op: string, metric = "credits") => `${OP}/${id}/balances/${metric}/${op}`;

describe("balance mutations", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Balances");
    other = await createTestTenant("Balances other");
    token = await tenant.token("provision.balance.*");
    otherToken = await other.token("provision.balance.*");
  });

  const balanceOf = (id: string) => testDb().balanceUsage.findUniqueOrThrow({ where: { id } });

  it("deposit: remaining + amount becomes totalCredits, creditsUsed restarts, lastDeposit set, cumulative untouched; one history row", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, {
      totalCredits: 100,
      creditsUsed: 30,
    });
    const res = await request("POST", path(entitlement.id, "deposit"), { token, body: { amount: 50.5 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      entitlementId: entitlement.id,
      metricName: "credits",
      operation: "Deposit",
      amount: 50.5,
      remainingCredits: 120.5,
    });
    expect(res.body.balanceUsage).toMatchObject({
      totalCredits: 120.5,
      creditsUsed: 0,
      cumulativeCreditsUsed: 30,
      lastDeposit: expect.any(String),
    });
    const history = await testDb().balanceHistoryEntry.findMany({ where: { balanceUsageId: balance.id } });
    expect(
      history.map((h) => [
        h.operation,
        h.amount.toNumber(),
        h.totalCreditsAfter.toNumber(),
        h.creditsUsedAfter.toNumber(),
      ]),
    ).toEqual([["Deposit", 50.5, 120.5, 0]]);
  });

  it("withdraw takes from the remaining balance and is refused beyond it; set makes remaining = amount", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, {
      totalCredits: 100,
      creditsUsed: 30,
    });
    const w = await request("POST", path(entitlement.id, "withdraw"), { token, body: { amount: 20 } });
    expect(w.status, w.text).toBe(200);
    expect(w.body.balanceUsage).toMatchObject({ totalCredits: 80, creditsUsed: 30, lastDeposit: null });
    expect(w.body.remainingCredits).toBe(50);
    expectProblem(
      await request("POST", path(entitlement.id, "withdraw"), { token, body: { amount: 50.000001 } }),
      400,
      "balance.insufficient_credits",
    );
    const s = await request("POST", path(entitlement.id, "set"), { token, body: { amount: 0 } });
    expect(s.body.balanceUsage).toMatchObject({ totalCredits: 0, creditsUsed: 0, cumulativeCreditsUsed: 30 });
    expect(s.body.remainingCredits).toBe(0);
    const after = await balanceOf(balance.id);
    expect(after.totalCredits.toNumber()).toBe(0);
    expect(await testDb().balanceHistoryEntry.count({ where: { balanceUsageId: balance.id } })).toBe(2);
  });

  it("validates amounts; unknown metric, unknown or foreign entitlement are 404; unlimited balances refuse; scopes", async () => {
    const entitlement = await insertEntitlement(tenant);
    await insertEntitlementBalance(tenant, entitlement.id);
    await insertEntitlementBalance(tenant, entitlement.id, {
      metricName: "unlimited",
      isUnlimitedCredits: true,
    });
    expectProblem(
      await request("POST", path(entitlement.id, "deposit"), { token, body: { amount: 0 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "deposit"), { token, body: { amount: -1 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "deposit"), { token, body: { amount: 0.0000001 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "set"), { token, body: { amount: -1 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "deposit", "Credits"), { token, body: { amount: 1 } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", path(randomUUID(), "deposit"), { token, body: { amount: 1 } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "deposit"), { token: otherToken, body: { amount: 1 } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "deposit", "unlimited"), { token, body: { amount: 1 } }),
      400,
      "balance.unlimited",
    );
    expectProblem(
      await request("POST", path(entitlement.id, "deposit"), { body: { amount: 1 } }),
      401,
      "auth.unauthenticated",
    );
    const readOnly = await tenant.token("provision.balance.read");
    expectProblem(
      await request("POST", path(entitlement.id, "deposit"), { token: readOnly, body: { amount: 1 } }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("parallel identical requests with one Idempotency-Key have one effect and all get the original response", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, { totalCredits: 10 });
    const key = `deposit-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        request("POST", path(entitlement.id, "deposit"), {
          token,
          body: { amount: 5 },
          headers: { "idempotency-key": key },
        }),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(7);
    expect((await balanceOf(balance.id)).totalCredits.toNumber()).toBe(15);
    expect(await testDb().balanceHistoryEntry.count({ where: { balanceUsageId: balance.id } })).toBe(1);
    const reused = await request("POST", path(entitlement.id, "deposit"), {
      token,
      body: { amount: 6 },
      headers: { "idempotency-key": key },
    });
    expectProblem(reused, 409, "idempotency.key_reused");
  });

  it("parallel different deposits and withdrawals keep consistent totals", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, { totalCredits: 1000 });
    const deposits = Array.from({ length: 10 }, (_, i) =>
      request("POST", path(entitlement.id, "deposit"), { token, body: { amount: i + 1 } }),
    );
    const withdrawals = Array.from({ length: 10 }, () =>
      request("POST", path(entitlement.id, "withdraw"), { token, body: { amount: 2.5 } }),
    );
    const results = await Promise.all([...deposits, ...withdrawals]);
    for (const r of results) expect(r.status, r.text).toBe(200);
    const after = await balanceOf(balance.id);
    expect(after.totalCredits.toNumber()).toBe(1000 + 55 - 25);
    expect(after.creditsUsed.toNumber()).toBe(0);
    const history = await testDb().balanceHistoryEntry.findMany({
      where: { balanceUsageId: balance.id },
      orderBy: { createdAt: "asc" },
    });
    expect(history).toHaveLength(20);
    expect(Math.max(...history.map((h) => h.totalCreditsAfter.toNumber()))).toBeLessThanOrEqual(1055);
  });

  it("parallel withdrawals never overdraw", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, { totalCredits: 10 });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        request("POST", path(entitlement.id, "withdraw"), { token, body: { amount: 3 } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(3);
    expect((await balanceOf(balance.id)).totalCredits.toNumber()).toBe(1);
  });
});

describe("consumer credit grant", () => {
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTestTenant("Credit grants");
  });

  const grantPath = (id: string) => `/api/v1/provision/consumer/me/entitlements/${id}/credit-grants`;

  it("the signed-in user grants credits on their own entitlement when consumersMayGrantCredits; Idempotency-Key gives one effect", async () => {
    const me = await signedInConsumer(tenant);
    const entitlement = await insertEntitlement(tenant, {
      customerKind: "User",
      customerId: me.customer.id,
      consumersMayGrantCredits: true,
    });
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, { totalCredits: 5 });
    const key = `grant-${randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        request("POST", grantPath(entitlement.id), {
          token: me.token,
          body: { metricName: "credits", amount: 10 },
          headers: { "idempotency-key": key },
        }),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results[0].body).toMatchObject({ operation: "ConsumerGrant", amount: 10, remainingCredits: 15 });
    expect(
      (await testDb().balanceUsage.findUniqueOrThrow({ where: { id: balance.id } })).totalCredits.toNumber(),
    ).toBe(15);
    const history = await testDb().balanceHistoryEntry.findMany({ where: { balanceUsageId: balance.id } });
    expect(history.map((h) => [h.operation, h.actorKind, h.actorId])).toEqual([
      ["ConsumerGrant", "user", me.user.id],
    ]);
  });

  it("refused (403) when the offer did not allow consumersMayGrantCredits; 404 for someone else's entitlement; 401 without a user token", async () => {
    const me = await signedInConsumer(tenant);
    const someoneElse = await signedInConsumer(tenant);
    const notAllowed = await insertEntitlement(tenant, {
      customerKind: "User",
      customerId: me.customer.id,
      consumersMayGrantCredits: false,
    });
    await insertEntitlementBalance(tenant, notAllowed.id);
    expectProblem(
      await request("POST", grantPath(notAllowed.id), {
        token: me.token,
        body: { metricName: "credits", amount: 1 },
      }),
      403,
      "balance.consumer_grant_not_allowed",
    );
    const theirs = await insertEntitlement(tenant, {
      customerKind: "User",
      customerId: someoneElse.customer.id,
      consumersMayGrantCredits: true,
    });
    await insertEntitlementBalance(tenant, theirs.id);
    expectProblem(
      await request("POST", grantPath(theirs.id), {
        token: me.token,
        body: { metricName: "credits", amount: 1 },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", grantPath(theirs.id), { body: { metricName: "credits", amount: 1 } }),
      401,
      "auth.unauthenticated",
    );
    expectProblem(
      await request("POST", grantPath(theirs.id), {
        token: someoneElse.token,
        body: { metricName: "credits", amount: 0 },
      }),
      400,
      "license.validation_error",
    );
  });
});

describe("balance mutations with consumption", () => {
  it("consumption spends creditsUsed; a deposit restarts it and keeps cumulativeCreditsUsed; a withdrawal is bounded by what consumption left; the history holds both", async () => {
    const { meteredLicense, consume, ok200 } = await import("../../helpers/metering.ts");
    const tenant = await createTestTenant("Balances and consumption");
    const token = await tenant.token("provision.balance.*");
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "credits", balance: { totalCredits: 100 } }],
    });
    const s = await license.session();
    ok200(await consume(s, "credits", 70));
    expectProblem(
      await request("POST", path(license.entitlement.id, "withdraw"), { token, body: { amount: 31 } }),
      400,
      "balance.insufficient_credits",
    );
    const deposit = await request("POST", path(license.entitlement.id, "deposit"), {
      token,
      body: { amount: 20 },
    });
    expect(deposit.body.balanceUsage).toMatchObject({
      totalCredits: 50,
      creditsUsed: 0,
      cumulativeCreditsUsed: 70,
    });
    ok200(await consume(s, "credits", 45));
    expect(ok200(await consume(s, "credits", 6))).toMatchObject({
      allowed: false,
      reasonCode: "InsufficientCredits",
    });
    const history = await testDb().balanceHistoryEntry.findMany({
      where: { balanceUsageId: license.assets.credits.balanceUsageId! },
      orderBy: { seq: "asc" },
    });
    expect(
      history.map((h) => [
        h.operation,
        h.amount.toNumber(),
        h.totalCreditsAfter.minus(h.creditsUsedAfter).toNumber(),
      ]),
    ).toEqual([
      ["Consume", 70, 30],
      ["Deposit", 20, 50],
      ["Consume", 45, 5],
    ]);
  });
});
