import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  CUSTOMER_USERS,
  ENTITLEMENTS,
  entitlementCatalog,
  makeOffer,
  ok,
} from "../../helpers/entitlements.ts";
import { ACTIVATIONS } from "../../helpers/runtime.ts";

describe("issue on registration (issueOnUserRegistration offers)", () => {
  let tenant: TestTenant;
  let token: string;
  let customerToken: string;
  let cat: Awaited<ReturnType<typeof entitlementCatalog>>;
  let welcome: { id: string };
  let starter: { id: string };
  let plainOffer: { id: string };
  let tryOffer: { id: string };

  beforeAll(async () => {
    tenant = await createTestTenant("Registration");
    cat = await entitlementCatalog(tenant);
    token = cat.token;
    customerToken = await tenant.token("provision.customer.*");
    welcome = await makeOffer(token, {
      name: "Welcome trial",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      isEntitlementTrial: true,
      validityDays: 30,
      issueOnUserRegistration: true,
    });
    starter = await makeOffer(token, {
      name: "Starter",
      productIds: [cat.product.id],
      issueOnUserRegistration: true,
    });
    // Flagged but not Published, and Published but not flagged: neither issues anything.
    await makeOffer(
      token,
      { name: "Draft welcome", productIds: [cat.product.id], issueOnUserRegistration: true },
      false,
    );
    plainOffer = await makeOffer(token, { name: "Plain", productIds: [cat.product.id] });
    tryOffer = await makeOffer(token, {
      name: "Try only",
      productIds: [cat.product.id],
      allowAnonymousTry: true,
    });
  });

  const register = (body: Record<string, unknown> = {}) =>
    request("POST", CUSTOMER_USERS, {
      token: customerToken,
      body: { email: `user-${randomUUID()}@example.com`, firstName: "Ada", ...body },
    });
  const entitlementsOf = async (customerId: string) =>
    ok(
      await request("GET", `${ENTITLEMENTS}?filter=customerId==${customerId}&sortOrder=createdAt`, { token }),
    ).items as { id: string; sourceOfferId: string; [k: string]: unknown }[];
  const envelopes = (entityId: string) =>
    testDb().webhookEnvelope.findMany({
      where: { tenantId: tenant.tenantId, entityId },
      select: { type: true },
    });

  it("creating a Consumer customer user issues one entitlement from every Published offer with issueOnUserRegistration, assigned to the user", async () => {
    const user = ok(await register(), 201);
    const issued = await entitlementsOf(user.id);
    expect(issued.map((e) => e.sourceOfferId).sort()).toEqual([welcome.id, starter.id].sort());
    const trial = ok(
      await request("GET", `${ENTITLEMENTS}/${issued.find((e) => e.sourceOfferId === welcome.id)!.id}`, {
        token,
      }),
    );
    expect(trial).toMatchObject({
      status: "Published",
      customerId: user.id,
      customerKind: "User",
      isEntitlementTrial: true,
      planName: "Basic",
      planHistory: [{ newPlanName: "Basic", source: "Issued" }],
    });
    const days =
      (Date.parse(trial.expirationDateTime as string) - Date.parse(trial.createdAt as string)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(issued.some((e) => e.sourceOfferId === plainOffer.id)).toBe(false);
  });

  it("registration emits User.Created, and each issued entitlement emits what an entitlement creation emits (nothing)", async () => {
    const user = ok(await register(), 201);
    expect((await envelopes(user.id)).map((e) => e.type)).toEqual(["User.Created"]);
    for (const e of await entitlementsOf(user.id)) expect(await envelopes(e.id)).toEqual([]);
  });

  it("a user who is not a registering customer (a Device, or a user with other roles) gets no entitlement", async () => {
    const device = ok(await register({ userType: "Device" }), 201);
    const staffish = ok(await register({ roles: ["Administrator"] }), 201);
    expect(await entitlementsOf(device.id)).toEqual([]);
    expect(await entitlementsOf(staffish.id)).toEqual([]);
  });

  it("registering with an anonymous try whose offer issues nothing on registration is 400 and creates neither the user nor an entitlement", async () => {
    const trial = await request("POST", `${ACTIVATIONS}/anonymous-try`, {
      body: { offerId: tryOffer.id, fingerprint: `device-${randomUUID()}` },
    });
    expect(trial.status, trial.text).toBe(200);
    const email = `nope-${randomUUID()}@example.com`;
    expectProblem(
      await register({ email, anonymousTryId: trial.body.anonymousTry.entitlementId }),
      400,
      "anonymous_try.not_convertible_on_registration",
    );
    expect(await testDb().customerUser.count({ where: { tenantId: tenant.tenantId, email } })).toBe(0);
    const notATry = (await entitlementsOf(ok(await register(), 201).id))[0];
    expectProblem(await register({ anonymousTryId: notATry.id }), 400, "anonymous_try.not_anonymous_try");
    expectProblem(await register({ anonymousTryId: randomUUID() }), 404, "license.not_found");
  });
});
