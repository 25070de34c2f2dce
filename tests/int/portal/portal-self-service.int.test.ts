import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  insertEntitlement,
  insertEntitlementBalance,
  signedInConsumer,
} from "../../helpers/licensing-fixtures.ts";
import {
  ENTITLEMENTS,
  entitlementCatalog,
  makeEntitlement,
  makeOffer,
  ok,
} from "../../helpers/entitlements.ts";
import { trpcMutation, trpcQuery, uiSignIn, uiSignInAttempt } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createUser } from "../../../server/domain/identity/users.ts";

const ME = "/api/v1/provision/consumer/me/entitlements";
const grantPath = (id: string) => `${ME}/${id}/credit-grants`;
const PASSWORD = "correct horse battery staple";

/** A portal user: REST token, UI cookie, and the customer their licenses are assigned to. */
async function portalUser(tenant: TestTenant) {
  const me = await signedInConsumer(tenant);
  const ui = await uiSignIn("consumer", { email: me.user.email, password: PASSWORD });
  return { ...me, cookie: ui.cookie };
}

const remaining = async (balanceId: string) => {
  const b = await testDb().balanceUsage.findUniqueOrThrow({ where: { id: balanceId } });
  return b.totalCredits.minus(b.creditsUsed).toNumber();
};

describe("consumer credit grant limits", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Grant limits");
  });

  async function grantable(customerId: string, limits: Record<string, number | null>, totalCredits = 5) {
    const entitlement = await insertEntitlement(tenant, {
      customerKind: "User",
      customerId,
      consumersMayGrantCredits: true,
      ...limits,
    });
    const { balance } = await insertEntitlementBalance(tenant, entitlement.id, { totalCredits });
    return { entitlement, balance };
  }

  it("REST: past the per-grant limit or the month's limit is refused 400 and changes nothing; an idempotent retry replays without counting twice", async () => {
    const me = await signedInConsumer(tenant);
    const { entitlement, balance } = await grantable(me.customer.id, {
      consumerGrantLimitPerGrant: 50,
      consumerGrantLimitPerMonth: 120,
    });
    const grant = (amount: number, key?: string) =>
      request("POST", grantPath(entitlement.id), {
        token: me.token,
        body: { metricName: "credits", amount },
        headers: key ? { "idempotency-key": key } : {},
      });

    const tooBig = await grant(50.000001);
    expectProblem(tooBig, 400, "balance.consumer_grant_limit_exceeded");
    expect(tooBig.body.code).toBe(6403);
    expect(tooBig.body.detail).toBe("You can add at most 50 credits at a time; 50.000001 is more than that.");
    expect(await remaining(balance.id)).toBe(5);

    expect(ok(await grant(50)).remainingCredits).toBe(55);
    const key = `grant-${randomUUID()}`;
    const first = await grant(50, key);
    expect(first.status, first.text).toBe(200);
    expect(first.body.remainingCredits).toBe(105);
    const retry = await grant(50, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.text).toBe(first.text);
    expect(await remaining(balance.id)).toBe(105);

    // 100 granted this month: 30 more would pass 120.
    const overMonth = await grant(30);
    expectProblem(overMonth, 400, "balance.consumer_grant_limit_exceeded");
    expect(overMonth.body.detail).toBe(
      "You can add at most 120 credits per month; 20 are left this month, so 30 is too many.",
    );
    expect(await remaining(balance.id)).toBe(105);
    expect(ok(await grant(20)).remainingCredits).toBe(125);
    expectProblem(await grant(0.000001), 400, "balance.consumer_grant_limit_exceeded");

    const history = await testDb().balanceHistoryEntry.findMany({
      where: { balanceUsageId: balance.id },
      orderBy: { seq: "asc" },
    });
    expect(history.map((h) => [h.operation, h.amount.toNumber(), h.actorId, h.actorLabel])).toEqual([
      ["ConsumerGrant", 50, me.user.id, me.user.name],
      ["ConsumerGrant", 50, me.user.id, me.user.name],
      ["ConsumerGrant", 20, me.user.id, me.user.name],
    ]);
  });

  it("parallel grants over REST and tRPC cannot pass the month's limit together", async () => {
    const me = await portalUser(tenant);
    const { entitlement, balance } = await grantable(me.customer.id, {
      consumerGrantLimitPerGrant: 50,
      consumerGrantLimitPerMonth: 100,
    });
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () =>
        request("POST", grantPath(entitlement.id), {
          token: me.token,
          body: { metricName: "credits", amount: 40 },
        }).then((r) => r.status),
      ),
      ...Array.from({ length: 3 }, () =>
        trpcMutation(
          "balances.grantMine",
          { entitlementId: entitlement.id, metricName: "credits", amount: 40 },
          me.cookie,
        ).then((r) => r.status),
      ),
    ]);
    expect(results.filter((s) => s === 200)).toHaveLength(2);
    expect(results.filter((s) => s === 400)).toHaveLength(4);
    expect(await remaining(balance.id)).toBe(85);
  });

  it("tRPC: the same limits, with the offer's defaults when unset (1,000 per grant); the balance history names who granted", async () => {
    const me = await portalUser(tenant);
    const { entitlement, balance } = await grantable(me.customer.id, {});
    const refused = await trpcMutation(
      "balances.grantMine",
      { entitlementId: entitlement.id, metricName: "credits", amount: 1000.5 },
      me.cookie,
    );
    expect(refused.status).toBe(400);
    expect(refused.error?.data?.problem?.codeName).toBe("balance.consumer_grant_limit_exceeded");
    expect(await remaining(balance.id)).toBe(5);
    const granted = await trpcMutation<{ remainingCredits: number }>(
      "balances.grantMine",
      { entitlementId: entitlement.id, metricName: "credits", amount: 1000 },
      me.cookie,
    );
    expect(granted.status).toBe(200);
    expect(granted.data?.remainingCredits).toBe(1005);
    const history = await trpcQuery<{ operation: string; amount: number; actorLabel: string | null }[]>(
      "meters.myBalanceHistory",
      { entitlementId: entitlement.id, metricName: "credits" },
      me.cookie,
    );
    expect(history.data?.map((h) => [h.operation, h.amount, h.actorLabel])).toEqual([
      ["ConsumerGrant", 1000, me.user.name],
    ]);
    // The grant is in the audit trail as the user's work.
    const audit = await testDb().auditEvent.findMany({
      where: { tenantId: tenant.tenantId, actorId: me.user.id, entityId: balance.id },
    });
    expect(audit.map((a) => [a.action, a.operation, a.actorLabel])).toEqual([
      ["balanceUsage.updated", "balances.grantMine", me.user.email],
    ]);
    // Staff see the grant, and who made it, on the customer's 360 page.
    const staffEmail = `support-${randomUUID().slice(0, 8)}@grants.example.com`;
    await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
      email: staffEmail,
      password: PASSWORD,
      kind: "staff",
      staffRole: "support",
    });
    const staff = await uiSignIn("staff", {
      email: staffEmail,
      password: PASSWORD,
      tenant: tenant.tenantSlug,
    });
    const overview = await trpcQuery<{
      grants: { entitlementId: string; operation: string; amount: string; actorLabel: string | null }[];
    }>("operations.customer", { kind: "User", id: me.customer.id }, staff.cookie);
    expect(overview.status, JSON.stringify(overview.error)).toBe(200);
    expect(overview.data?.grants).toMatchObject([
      { entitlementId: entitlement.id, operation: "ConsumerGrant", amount: "1000", actorLabel: me.user.name },
    ]);
  });

  it("staff set the limits on the offer; entitlements made from it carry them", async () => {
    const staff = await createTestTenant("Grant limits offer");
    const cat = await entitlementCatalog(staff);
    const offer = await makeOffer(cat.token, {
      productIds: [cat.product.id],
      consumersMayGrantCredits: true,
      consumerGrantLimitPerGrant: 25,
      consumerGrantLimitPerMonth: 60,
    });
    expect(offer).toMatchObject({ consumerGrantLimitPerGrant: 25, consumerGrantLimitPerMonth: 60 });
    const entitlement = await makeEntitlement(cat.token, { offerId: offer.id });
    expect(entitlement).toMatchObject({ consumerGrantLimitPerGrant: 25, consumerGrantLimitPerMonth: 60 });
    const fetched = ok(await request("GET", `${ENTITLEMENTS}/${entitlement.id}`, { token: cat.token }));
    expect(fetched).toMatchObject({ consumerGrantLimitPerGrant: 25, consumerGrantLimitPerMonth: 60 });
    expectProblem(
      await request("POST", "/api/v1/provision/admin/offers", {
        token: cat.token,
        body: { name: "Bad limit", consumerGrantLimitPerGrant: 0 },
      }),
      400,
      "license.validation_error",
    );
  });
});

describe("plan-change requests from the portal", () => {
  it("request (tRPC) → pending on the license → approved with a note by staff (REST) → new plan, outcome and both history steps; a second pending request is refused", async () => {
    const tenant = await createTestTenant("Portal plan change");
    const cat = await entitlementCatalog(tenant);
    const me = await portalUser(tenant);
    const entitlement = await makeEntitlement(cat.token, {
      name: "Studio",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      customerId: me.customer.id,
    });

    const plans = await trpcQuery<{ plans: { name: string; isCurrent: boolean; features: unknown[] }[] }>(
      "sessions.myLicensePlans",
      { entitlementId: entitlement.id },
      me.cookie,
    );
    expect(plans.data?.plans.map((p) => [p.name, p.isCurrent])).toEqual([
      ["Basic", true],
      ["Pro", false],
    ]);
    expect(plans.data?.plans[1].features).toEqual([
      {
        featureCode: cat.seats.featureCode,
        featureName: "Seats",
        units: null,
        value: "20",
        enforcementType: "SingleValue",
      },
      {
        featureCode: cat.sso.featureCode,
        featureName: "SSO",
        units: null,
        value: "true",
        enforcementType: "SingleValue",
      },
    ]);

    const requested = await trpcMutation<{ id: string; status: string }>(
      "sessions.myPlanChange",
      { entitlementId: entitlement.id, planName: "Pro", note: "We hired three people" },
      me.cookie,
    );
    expect(requested.status).toBe(200);
    expect(requested.data?.status).toBe("Pending");
    const again = await trpcMutation(
      "sessions.myPlanChange",
      { entitlementId: entitlement.id, planName: "Pro" },
      me.cookie,
    );
    expect(again.status).toBe(409);
    expect(again.error?.data?.problem?.codeName).toBe("plan_change.pending_exists");
    // The REST consumer view agrees.
    expect(
      ok(await request("GET", `${ME}/${entitlement.id}/plans`, { token: me.token })).pendingPlanChangeRequest,
    ).toMatchObject({ id: requested.data!.id, requestedPlanName: "Pro" });

    const reviewed = ok(
      await request("POST", `/api/v1/provision/admin/plan-change-requests/${requested.data!.id}/review`, {
        token: cat.token,
        body: { approved: true, note: "Welcome to Pro" },
      }),
    );
    expect(reviewed).toMatchObject({ status: "Approved", reviewNote: "Welcome to Pro" });

    const after = await trpcQuery<{
      planName: string;
      pendingPlanChangeRequest: unknown;
      recentPlanChangeRequests: {
        requestedPlanName: string;
        status: string;
        note: string;
        reviewNote: string;
      }[];
    }>("sessions.myLicensePlans", { entitlementId: entitlement.id }, me.cookie);
    expect(after.data?.planName).toBe("Pro");
    expect(after.data?.pendingPlanChangeRequest).toBeNull();
    expect(after.data?.recentPlanChangeRequests).toMatchObject([
      {
        requestedPlanName: "Pro",
        status: "Approved",
        note: "We hired three people",
        reviewNote: "Welcome to Pro",
      },
    ]);

    const billing = await trpcQuery<{
      billing: { method: string; state: string };
      periods: {
        items: {
          planName: string;
          previousPlanName: string | null;
          source: string;
          periodEnd: string | null;
        }[];
        totalCount: number;
      };
    }>(
      "sessions.myBillingHistory",
      { entitlementId: entitlement.id, pageNumber: 1, pageSize: 10 },
      me.cookie,
    );
    expect(billing.status).toBe(200);
    expect(billing.data?.billing).toMatchObject({ method: "Unspecified", state: "None" });
    expect(billing.data?.periods.totalCount).toBe(2);
    expect(
      billing.data?.periods.items.map((p) => [
        p.planName,
        p.previousPlanName,
        p.source,
        p.periodEnd === null,
      ]),
    ).toEqual([
      ["Pro", "Basic", "ApprovedPlanChangeRequest", true],
      ["Basic", null, "Issued", false],
    ]);
    // Page 2 of size 1 still knows when its period ended (the next assignment).
    const page2 = await trpcQuery<{ periods: { items: { planName: string; periodEnd: string | null }[] } }>(
      "sessions.myBillingHistory",
      { entitlementId: entitlement.id, pageNumber: 2, pageSize: 1 },
      me.cookie,
    );
    expect(page2.data?.periods.items.map((p) => [p.planName, p.periodEnd !== null])).toEqual([
      ["Basic", true],
    ]);

    // Declined with a note: the outcome and the note reach the license; the plan stays.
    const second = await trpcMutation<{ id: string }>(
      "sessions.myPlanChange",
      { entitlementId: entitlement.id, planName: "Basic" },
      me.cookie,
    );
    ok(
      await request("POST", `/api/v1/provision/admin/plan-change-requests/${second.data!.id}/review`, {
        token: cat.token,
        body: { approved: false, note: "Not during your contract year" },
      }),
    );
    const declined = await trpcQuery<{
      planName: string;
      recentPlanChangeRequests: { status: string; reviewNote: string }[];
    }>("sessions.myLicensePlans", { entitlementId: entitlement.id }, me.cookie);
    expect(declined.data?.planName).toBe("Pro");
    expect(declined.data?.recentPlanChangeRequests.map((r) => [r.status, r.reviewNote])).toEqual([
      ["Rejected", "Not during your contract year"],
      ["Approved", "Welcome to Pro"],
    ]);
  });
});

describe("another customer's license", () => {
  it("is not found (404) for plans, plan changes, billing history and grants, over REST and tRPC; nothing is written", async () => {
    const tenant = await createTestTenant("Portal isolation");
    const cat = await entitlementCatalog(tenant);
    const me = await portalUser(tenant);
    const them = await signedInConsumer(tenant);
    const theirs = await makeEntitlement(cat.token, {
      name: "Their license",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      customerId: them.customer.id,
      consumersMayGrantCredits: true,
    });
    for (const [path, input] of [
      ["sessions.myLicensePlans", { entitlementId: theirs.id }],
      ["sessions.myBillingHistory", { entitlementId: theirs.id, pageNumber: 1, pageSize: 10 }],
    ] as const) {
      const res = await trpcQuery(path, input, me.cookie);
      expect(res.status, path).toBe(404);
    }
    for (const [path, input] of [
      ["sessions.myPlanChange", { entitlementId: theirs.id, planName: "Pro" }],
      ["balances.grantMine", { entitlementId: theirs.id, metricName: "ai-credits", amount: 1 }],
    ] as const) {
      const res = await trpcMutation(path, input, me.cookie);
      expect(res.status, path).toBe(404);
      expect(res.error?.data?.problem?.codeName).toBe("license.not_found");
    }
    expectProblem(
      await request("GET", `${ME}/${theirs.id}/plans`, { token: me.token }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${ME}/${theirs.id}/plan-change-requests`, {
        token: me.token,
        body: { planName: "Pro" },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", grantPath(theirs.id), {
        token: me.token,
        body: { metricName: "ai-credits", amount: 1 },
      }),
      404,
      "license.not_found",
    );
    expect(await testDb().planChangeRequest.count({ where: { entitlementId: theirs.id } })).toBe(0);
    expect(await testDb().balanceHistoryEntry.count({ where: { entitlementId: theirs.id } })).toBe(0);
  });
});

describe("password change and other sessions", () => {
  it("a wrong current password is refused and counts toward the sign-in back-off (10 per 5 minutes): then even the right one waits, and so does sign-in", async () => {
    const tenant = await createTestTenant("Password back-off");
    const me = await portalUser(tenant);
    for (let i = 0; i < 10; i++) {
      const wrong = await trpcMutation(
        "me.changePassword",
        { currentPassword: `not it ${i}`, newPassword: "a brand new password" },
        me.cookie,
      );
      expect(wrong.status).toBe(400);
      expect(wrong.error?.data?.problem?.codeName).toBe("auth.current_password_wrong");
    }
    const blocked = await trpcMutation(
      "me.changePassword",
      { currentPassword: PASSWORD, newPassword: "a brand new password" },
      me.cookie,
    );
    expect(blocked.status).toBe(429);
    expect(blocked.error?.data?.problem?.codeName).toBe("request.rate_limited");
    const signIn = await uiSignInAttempt("consumer", { email: me.user.email, password: PASSWORD });
    expect(signIn.error).toMatch(/^rate-limited:\d+$/);
    // The password did not change.
    const user = await testDb().user.findUniqueOrThrow({ where: { id: me.user.id } });
    expect(user.sessionsValidFrom).toBeNull();
  });

  it("the right current password changes it and ends the other sessions; 'sign out of other sessions' keeps the one that asked", async () => {
    const tenant = await createTestTenant("Password change");
    const me = await portalUser(tenant);
    const other = await uiSignIn("consumer", { email: me.user.email, password: PASSWORD });
    const tooShort = await trpcMutation(
      "me.changePassword",
      { currentPassword: PASSWORD, newPassword: "short" },
      me.cookie,
    );
    expect(tooShort.status).toBe(400);
    expect(tooShort.error?.data?.problem?.codeName).toBe("license.validation_error");
    const changed = await trpcMutation(
      "me.changePassword",
      { currentPassword: PASSWORD, newPassword: "a brand new password" },
      me.cookie,
    );
    expect(changed.status).toBe(200);
    expect((await trpcQuery("me.profile", undefined, me.cookie)).status).toBe(200);
    expect((await trpcQuery("me.profile", undefined, other.cookie)).status).toBe(401);
    expect((await uiSignInAttempt("consumer", { email: me.user.email, password: PASSWORD })).error).toBe(
      "CredentialsSignin",
    );
    const fresh = await uiSignIn("consumer", { email: me.user.email, password: "a brand new password" });
    const third = await uiSignIn("consumer", { email: me.user.email, password: "a brand new password" });
    expect((await trpcMutation("me.signOutOtherSessions", undefined, fresh.cookie)).status).toBe(200);
    expect((await trpcQuery("me.profile", undefined, fresh.cookie)).status).toBe(200);
    expect((await trpcQuery("me.profile", undefined, third.cookie)).status).toBe(401);
    expect((await trpcQuery("me.profile", undefined, me.cookie)).status).toBe(401);

    const renamed = await trpcMutation<{ name: string; email: string }>(
      "me.updateProfile",
      { name: "Ada Customer" },
      fresh.cookie,
    );
    expect(renamed.data).toMatchObject({ name: "Ada Customer", email: me.user.email });
  });
});
