import type { Runner } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { eventually, startWorker, stopWorker } from "../../helpers/webhooks.ts";
import { captureSubscription, SUBS } from "../../helpers/webhook-fixtures.ts";
import {
  CUSTOMER_ORGS,
  CUSTOMER_USERS,
  ENTITLEMENTS,
  makeEntitlement,
  ok,
} from "../../helpers/entitlements.ts";

type Captured = {
  envelope: { id: string; type: string; time: string; entityid: string; data: Record<string, unknown> };
};

describe("customers: users and organizations with User.* and Organization.* events", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let hooks: string;
  let runner: Runner;
  let capture: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Customers");
    other = await createTestTenant("Customers other");
    token = await tenant.token(["provision.customer.*", "provision.entitlement-adm.*"]);
    hooks = await tenant.token("provision.webhook.*");
    runner = await startWorker();
    capture = await captureSubscription(hooks, {
      eventTypePatterns: [
        "User.Created",
        "User.Updated",
        "User.Deleted",
        "Organization.Created",
        "Organization.Updated",
        "Organization.Deleted",
      ],
    });
  });
  afterAll(async () => stopWorker(runner));

  /**
   * Captured events about one entity, oldest first by the time of the change: delivery order is not
   * guaranteed (docs/api.md "Delivery semantics"), so the capture order may differ.
   */
  const eventsOf = async (entityId: string): Promise<Captured["envelope"][]> => {
    const res = ok(await request("GET", `${SUBS}/${capture}/captured-events?pageSize=100`, { token: hooks }));
    return (res.items as Captured[])
      .map((i) => i.envelope)
      .filter((e) => e.entityid === entityId)
      .sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  };
  const waitFor = (entityId: string, count: number) =>
    eventually(async () => ((await eventsOf(entityId)).length >= count ? eventsOf(entityId) : undefined));

  it("User.Created, User.Updated with changedFields, nothing for a save that changes nothing, User.Deleted", async () => {
    const user = ok(
      await request("POST", CUSTOMER_USERS, {
        token,
        body: { email: "ada@example.com", firstName: "Ada", lastName: "Byron", externalReference: "crm-1" },
      }),
      201,
    );
    expect(user).toMatchObject({
      userType: "Consumer",
      roles: ["LicenseConsumer"],
      isCustomer: true,
      origin: "admin",
    });
    ok(await request("PATCH", `${CUSTOMER_USERS}/${user.id}`, { token, body: { lastName: "Byron" } }));
    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${user.id}`, {
        token,
        body: { lastName: "Lovelace", isBlocked: true, origin: "hubspot" },
      }),
    );
    expect((await request("DELETE", `${CUSTOMER_USERS}/${user.id}`, { token })).status).toBe(204);
    const events = await waitFor(user.id, 3);
    expect(events.map((e) => e.type)).toEqual(["User.Created", "User.Updated", "User.Deleted"]);
    expect(events[0].data).toMatchObject({
      id: user.id,
      email: "ada@example.com",
      origin: "admin",
      userType: "Consumer",
      externalReference: "crm-1",
      isApproved: true,
    });
    expect(events[1].data).toMatchObject({
      lastName: "Lovelace",
      isBlocked: true,
      origin: "hubspot",
      changedFields: ["lastName", "isBlocked"],
    });
    expect(events[2].data).toEqual({
      userId: user.id,
      externalReference: "crm-1",
      origin: "admin",
      userType: "Consumer",
    });
    expectProblem(await request("GET", `${CUSTOMER_USERS}/${user.id}`, { token }), 404, "license.not_found");
  });

  it("User events describe customers only: a user who stops being one gets User.Deleted, and User.Created on becoming one again", async () => {
    const staff = ok(
      await request("POST", CUSTOMER_USERS, {
        token,
        body: { email: "vendor@example.com", roles: ["LicenseConsumer", "VendorSupport"] },
      }),
      201,
    );
    expect(staff.isCustomer).toBe(false);
    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${staff.id}`, {
        token,
        body: { firstName: "Not a customer" },
      }),
    );
    const device = ok(
      await request("POST", CUSTOMER_USERS, { token, body: { userType: "Device", roles: ["Kiosk"] } }),
      201,
    );
    const user = ok(
      await request("POST", CUSTOMER_USERS, { token, body: { email: "bob@example.com" } }),
      201,
    );
    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${user.id}`, {
        token,
        body: { roles: ["LicenseConsumer", "VendorAdmin"] },
      }),
    );
    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${user.id}`, { token, body: { roles: ["LicenseConsumer"] } }),
    );
    expect((await waitFor(user.id, 3)).map((e) => e.type)).toEqual([
      "User.Created",
      "User.Deleted",
      "User.Created",
    ]);
    expect((await waitFor(device.id, 1)).map((e) => [e.type, e.data.userType])).toEqual([
      ["User.Created", "Device"],
    ]);
    expect(await eventsOf(staff.id)).toEqual([]);
  });

  it("Organization.Created / Updated (changedFields, invoice details omitted; invoice-only change sends nothing) / Deleted", async () => {
    const parent = ok(await request("POST", CUSTOMER_ORGS, { token, body: { name: "Holding" } }), 201);
    const org = ok(
      await request("POST", CUSTOMER_ORGS, {
        token,
        body: {
          name: "Example Corp",
          parentId: parent.id,
          emailDomain: "example.com",
          country: "DE",
          invoiceDetails: { vatId: "DE123" },
        },
      }),
      201,
    );
    expect(org.invoiceDetails).toEqual({ vatId: "DE123" });
    ok(
      await request("PATCH", `${CUSTOMER_ORGS}/${org.id}`, {
        token,
        body: { invoiceDetails: { vatId: "DE999" } },
      }),
    );
    ok(await request("PATCH", `${CUSTOMER_ORGS}/${org.id}`, { token, body: { name: "Example Corp" } }));
    ok(
      await request("PATCH", `${CUSTOMER_ORGS}/${org.id}`, {
        token,
        body: { name: "Example GmbH", country: "AT" },
      }),
    );
    expect((await request("DELETE", `${CUSTOMER_ORGS}/${org.id}`, { token })).status).toBe(204);
    const events = await waitFor(org.id, 3);
    expect(events.map((e) => e.type)).toEqual([
      "Organization.Created",
      "Organization.Updated",
      "Organization.Deleted",
    ]);
    expect(events[0].data).toEqual({
      id: org.id,
      externalReference: null,
      origin: "admin",
      parentId: parent.id,
      organizationType: "Customer",
      name: "Example Corp",
      emailDomain: "example.com",
      country: "DE",
    });
    expect(events[1].data).toMatchObject({
      name: "Example GmbH",
      country: "AT",
      changedFields: ["name", "country"],
    });
    expect(JSON.stringify(events)).not.toContain("vatId");
    expect(events[2].data).toEqual({ organizationId: org.id, externalReference: null, origin: "admin" });
  });

  it("an entitlement is assigned to a customer user or organization; a customer with entitlements cannot be removed", async () => {
    const org = ok(await request("POST", CUSTOMER_ORGS, { token, body: { name: "Assigned Org" } }), 201);
    const member = ok(
      await request("POST", CUSTOMER_USERS, {
        token,
        body: { email: "m@example.com", organizationIds: [org.id] },
      }),
      201,
    );
    const ent = await makeEntitlement(token, { name: "Org licence", customerId: org.id });
    expect(ent).toMatchObject({ customerId: org.id, customerKind: "Organization" });
    const moved = ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, { token, body: { customerId: member.id } }),
    );
    expect(moved).toMatchObject({ customerId: member.id, customerKind: "User" });
    expect(
      ok(await request("GET", `${ENTITLEMENTS}?filter=customerId==${member.id}`, { token })).totalCount,
    ).toBe(1);
    expectProblem(
      await request("DELETE", `${CUSTOMER_USERS}/${member.id}`, { token }),
      400,
      "customer.in_use",
    );
    expectProblem(await request("DELETE", `${CUSTOMER_ORGS}/${org.id}`, { token }), 400, "customer.in_use");
    expectProblem(
      await request("POST", ENTITLEMENTS, { token, body: { name: "x", customerId: crypto.randomUUID() } }),
      404,
      "license.not_found",
    );
    const cleared = ok(
      await request("PATCH", `${ENTITLEMENTS}/${ent.id}`, { token, body: { clearCustomer: true } }),
    );
    expect(cleared).toMatchObject({ customerId: null, customerKind: null });
    expect((await request("DELETE", `${CUSTOMER_USERS}/${member.id}`, { token })).status).toBe(204);
  });

  it("lists filter and page; non-whitelisted fields are refused", async () => {
    const org = ok(await request("POST", CUSTOMER_ORGS, { token, body: { name: "Filter Org" } }), 201);
    ok(
      await request("POST", CUSTOMER_USERS, {
        token,
        body: { email: "f1@example.com", organizationIds: [org.id] },
      }),
      201,
    );
    ok(
      await request("POST", CUSTOMER_USERS, {
        token,
        body: { email: "f2@example.com", organizationIds: [org.id] },
      }),
      201,
    );
    const page = ok(
      await request("GET", `${CUSTOMER_USERS}?filter=organizationId==${org.id}&sortOrder=email&pageSize=1`, {
        token,
      }),
    );
    expect(page).toMatchObject({ totalCount: 2, totalPages: 2, hasNextPage: true });
    expect(page.items[0].email).toBe("f1@example.com");
    expect(ok(await request("GET", `${CUSTOMER_ORGS}?filter=name@=Filter`, { token })).totalCount).toBe(1);
    expectProblem(
      await request("GET", `${CUSTOMER_USERS}?filter=roles==x`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", `${CUSTOMER_ORGS}?sortOrder=invoiceDetails`, { token }),
      400,
      "license.validation_error",
    );
  });

  it("every route answers 401 without a token, 403 without the scope and 404 for another tenant's ids", async () => {
    const user = ok(await request("POST", CUSTOMER_USERS, { token, body: { email: "x@example.com" } }), 201);
    const org = ok(await request("POST", CUSTOMER_ORGS, { token, body: { name: "X" } }), 201);
    const wrong = await tenant.token("provision.entitlement-adm.*");
    const foreign = await other.token("provision.customer.*");
    const routes: [string, string, unknown?][] = [
      ["GET", CUSTOMER_USERS],
      ["POST", CUSTOMER_USERS, {}],
      ["GET", `${CUSTOMER_USERS}/${user.id}`],
      ["PATCH", `${CUSTOMER_USERS}/${user.id}`, { firstName: "y" }],
      ["DELETE", `${CUSTOMER_USERS}/${user.id}`],
      ["GET", CUSTOMER_ORGS],
      ["POST", CUSTOMER_ORGS, { name: "y" }],
      ["GET", `${CUSTOMER_ORGS}/${org.id}`],
      ["PATCH", `${CUSTOMER_ORGS}/${org.id}`, { name: "y" }],
      ["DELETE", `${CUSTOMER_ORGS}/${org.id}`],
    ];
    for (const [method, path, body] of routes) {
      expectProblem(await request(method, path, { body }), 401, "auth.unauthenticated");
      expectProblem(await request(method, path, { token: wrong, body }), 403, "auth.insufficient_scope");
      if (path.endsWith(user.id) || path.endsWith(org.id))
        expectProblem(await request(method, path, { token: foreign, body }), 404, "license.not_found");
    }
  });
});
