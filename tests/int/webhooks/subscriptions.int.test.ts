import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { challengeAnswerer, startReceiver, type Receiver } from "../../helpers/webhooks.ts";

const SUBS = "/api/v1/webhooks/subscriptions";
const INT_SUBS = "/api/v1/webhooks/integrator/subscriptions";

describe("webhook subscriptions (REST, both surfaces)", () => {
  let tenant: TestTenant;
  let admin: string;
  let integratorA: string;
  let integratorB: string;
  let receiver: Receiver;

  const create = (body: Record<string, unknown>, token = admin, base = SUBS) =>
    request("POST", base, {
      token,
      body: { displayName: "Receiver", eventTypePatterns: ["Entitlement.Activated"], ...body },
    });
  const http = async (body: Record<string, unknown> = {}, token = admin, base = SUBS) => {
    const res = await create({ url: receiver.url, ...body }, token, base);
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; secret: string; state: string };
  };
  const post = (path: string, token = admin, body?: unknown) => request("POST", path, { token, body });
  const verified = async (body: Record<string, unknown> = {}) => {
    const sub = await http(body);
    receiver.setHandler(challengeAnswerer(sub.secret));
    const res = await post(`${SUBS}/${sub.id}/verify`);
    expect(res.body.state, res.text).toBe("Active");
    return sub;
  };

  beforeAll(async () => {
    tenant = await createTestTenant("Webhook subscriptions");
    admin = await tenant.token("provision.webhook.*");
    integratorA = await tenant.token("webhooks.integrator");
    integratorB = await tenant.token("webhooks.integrator");
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.close());

  it("GET /api/v1/webhooks/schemas lists every event type of docs/api.md without authentication, with JSON Schemas, field paths and samples", async () => {
    const res = await request("GET", "/api/v1/webhooks/schemas");
    expect(res.status).toBe(200);
    const types = res.body.items.map((t: { type: string }) => t.type);
    expect(types).toEqual(
      expect.arrayContaining([
        "Entitlement.Activated",
        "Entitlement.PlanChangeReviewed",
        "Entitlement.SeatActivated",
        "Entitlement.SeatReleased",
        "Entitlement.DeviceReset",
        "Entitlement.DeviceBlocked",
        "Entitlement.DeviceUnblocked",
        "User.Created",
        "User.Updated",
        "User.Deleted",
        "Organization.Created",
        "Organization.Updated",
        "Organization.Deleted",
        "MeteredUsage.OverageStatusChanged",
        "Webhooks.Registration.Challenge",
      ]),
    );
    expect(res.body).toMatchObject({ totalCount: types.length, pageNumber: 1, hasNextPage: false });
    const activated = res.body.items.find((t: { type: string }) => t.type === "Entitlement.Activated");
    expect(activated).toMatchObject({ entityKind: "entitlement", eventVersion: 1, subscribable: true });
    expect(activated.fieldPaths).toEqual(
      expect.arrayContaining(["entitlementId", "planCode", "billing.provider"]),
    );
    expect(activated.dataSchema).toMatchObject({
      type: "object",
      properties: { entitlementId: { type: "string" } },
    });
    expect(activated.sample).toMatchObject({
      specversion: "1.0",
      type: "Entitlement.Activated",
      source: "urn:licensing:tenant:00000000-0000-4000-8000-000000000000",
      data: { entitlementId: "00000000-0000-4000-8000-000000000001" },
    });
    const overage = res.body.items.find(
      (t: { type: string }) => t.type === "MeteredUsage.OverageStatusChanged",
    );
    expect(overage).toMatchObject({
      entityKind: "monitored-asset",
      fieldPaths: expect.arrayContaining(["severity", "metricName"]),
    });
    expect(
      res.body.items.find((t: { type: string }) => t.type === "Webhooks.Registration.Challenge"),
    ).toMatchObject({ subscribable: false, fieldPaths: ["challenge"] });
  });

  it("Subscription none → create with targetKind Http (default) → PendingVerification; the secret is shown once", async () => {
    const res = await create({ url: receiver.url });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      targetKind: "Http",
      url: receiver.url,
      state: "PendingVerification",
      createdVia: "admin",
      callbackScopes: [],
      filters: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(res.body.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const read = await request("GET", `${SUBS}/${res.body.id}`, { token: admin });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("secret");
    expect(JSON.stringify(read.body)).not.toContain(res.body.secret.slice(6));
  });

  it("Subscription none → create with targetKind Capture → Active; no URL, no secret, no challenge", async () => {
    const res = await create({ targetKind: "Capture", eventTypePatterns: ["*"] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ targetKind: "Capture", url: null, secret: null, state: "Active" });
    const before = receiver.requests.length;
    const verify = await post(`${SUBS}/${res.body.id}/verify`);
    expect(verify.status).toBe(200);
    expect(verify.body.state).toBe("Active");
    expect(receiver.requests.length).toBe(before);
  });

  it("capture subscriptions refuse a URL, a secret, callback scopes and secret rotation (400 subscription.not_applicable, 4022); the kind is fixed at creation", async () => {
    const one = (res: Awaited<ReturnType<typeof create>>) => {
      expectProblem(res, 400, "subscription.not_applicable");
      expect(res.body.code).toBe(4022);
    };
    one(await create({ targetKind: "Capture", url: receiver.url }));
    one(await create({ targetKind: "Capture", secret: "whsec_" + Buffer.alloc(32, 1).toString("base64") }));
    one(await create({ targetKind: "Capture", callbackScopes: ["provision.tag.read"] }));
    const capture = (await create({ targetKind: "Capture" })).body;
    one(
      await request("PATCH", `${SUBS}/${capture.id}`, {
        token: admin,
        body: { callbackScopes: ["provision.tag.read"] },
      }),
    );
    one(await request("PATCH", `${SUBS}/${capture.id}`, { token: admin, body: { url: receiver.url } }));
    one(await request("PATCH", `${SUBS}/${capture.id}`, { token: admin, body: { targetKind: "Http" } }));
    one(await post(`${SUBS}/${capture.id}/secret`));
    const httpSub = await http();
    one(await request("PATCH", `${SUBS}/${httpSub.id}`, { token: admin, body: { targetKind: "Capture" } }));
  });

  it("capture is unavailable on the integrator surface (4022)", async () => {
    expectProblem(
      await create({ targetKind: "Capture" }, integratorA, INT_SUBS),
      400,
      "subscription.not_applicable",
    );
  });

  it("an Http subscription must have a URL (400 license.validation_error)", async () => {
    expectProblem(await create({}), 400, "license.validation_error");
  });

  it("eventTypePatterns: family wildcards, unknown types, wrong case and the challenge type are refused (4035) on create and update; * is accepted", async () => {
    for (const pattern of [
      "Entitlement.*",
      "Unknown.Type",
      "entitlement.activated",
      "Webhooks.Registration.Challenge",
      "*.Activated",
    ]) {
      const res = await create({ url: receiver.url, eventTypePatterns: [pattern] });
      expectProblem(res, 400, "subscription.invalid_event_type");
      expect(res.body.code).toBe(4035);
    }
    expectProblem(
      await create({ url: receiver.url, eventTypePatterns: [] }),
      400,
      "subscription.invalid_event_type",
    );
    const sub = await http({ eventTypePatterns: ["*"] });
    expectProblem(
      await request("PATCH", `${SUBS}/${sub.id}`, { token: admin, body: { eventTypePatterns: ["User.*"] } }),
      400,
      "subscription.invalid_event_type",
    );
    const ok = await request("PATCH", `${SUBS}/${sub.id}`, {
      token: admin,
      body: { eventTypePatterns: ["User.Created", "User.Created", "Organization.Deleted"] },
    });
    expect(ok.body.eventTypePatterns).toEqual(["User.Created", "Organization.Deleted"]);
  });

  it("filters that could never match are refused (400 subscription.invalid_filter, 4034): empty field name, null value, a field no subscribed type carries", async () => {
    const refused = async (filters: unknown, eventTypePatterns = ["Entitlement.Activated"]) => {
      const res = await create({ url: receiver.url, eventTypePatterns, filters });
      expectProblem(res, 400, "subscription.invalid_filter");
      expect(res.body.code).toBe(4034);
    };
    await refused({ attributeEquality: { "": "x" } });
    await refused({ attributeEquality: { "billing.": "x" } });
    await refused({ attributeEquality: { planCode: null } });
    await refused({ attributeEquality: { sessionId: "x" } }); // only seat events carry it
    await refused({ attributeEquality: { PlanCode: "x" } }); // exact case
    await refused({ attributeEquality: { billing: "x" } }); // an object never matches
    await refused({ attributeEquality: { productIds: "x" } }, ["Entitlement.SeatActivated"]); // an array never matches
    await refused({ entityKinds: ["user"] });
    await refused({ severities: ["Critical"] });
    // Under *, any event type's fields count.
    expect(
      (
        await create({
          url: receiver.url,
          eventTypePatterns: ["*"],
          filters: { attributeEquality: { sessionId: "s" }, severities: ["Critical"], entityKinds: ["user"] },
        })
      ).status,
    ).toBe(201);
    const ok = await create({
      url: receiver.url,
      filters: {
        attributeEquality: { "billing.provider": "stripe", planCode: "PRO" },
        entityKinds: ["entitlement"],
      },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.filters).toEqual({
      attributeEquality: { "billing.provider": "stripe", planCode: "PRO" },
      entityKinds: ["entitlement"],
    });
    // Changing event types re-checks the filters kept.
    const res = await request("PATCH", `${SUBS}/${ok.body.id}`, {
      token: admin,
      body: { eventTypePatterns: ["User.Created"] },
    });
    expectProblem(res, 400, "subscription.invalid_filter");
    const cleared = await request("PATCH", `${SUBS}/${ok.body.id}`, {
      token: admin,
      body: { eventTypePatterns: ["User.Created"], clearFilters: true },
    });
    expect(cleared.body).toMatchObject({ eventTypePatterns: ["User.Created"], filters: null });
  });

  it("URLs that are not https, not absolute or carry credentials are refused (400 subscription.invalid_url, 4033)", async () => {
    for (const url of [
      "ftp://example.com/hook",
      "not a url",
      "/relative",
      "https://user:pass@example.com/hook",
    ]) {
      const res = await create({ url });
      expectProblem(res, 400, "subscription.invalid_url");
      expect(res.body.code).toBe(4033);
    }
  });

  it("callback scopes are limited to docs/api.md's families: no wildcards, delete verbs, administration, privacy or webhook scopes", async () => {
    for (const scope of [
      "provision.*",
      "provision.tag.*",
      "provision.tag.delete",
      "provision.webhook.read",
      "provision.customer.read",
      "webhooks.integrator",
      "provision.catalog.create",
    ]) {
      expectProblem(
        await create({ url: receiver.url, callbackScopes: [scope] }),
        400,
        "subscription.invalid_callback_scope",
      );
    }
    // Within the families, a credential grants only scopes it holds (docs/security.md "Webhooks").
    const granting = await tenant.token(
      "provision.webhook.* provision.tag.read provision.entitlement-adm.read provision.balance.update",
    );
    const ok = await create(
      {
        url: receiver.url,
        callbackScopes: ["provision.tag.read", "provision.entitlement-adm.read", "provision.balance.update"],
      },
      granting,
    );
    expect(ok.status).toBe(201);
    expect(ok.body.callbackScopes).toEqual([
      "provision.tag.read",
      "provision.entitlement-adm.read",
      "provision.balance.update",
    ]);
  });

  it("a supplied secret must be whsec_ + base64 of 24 to 64 bytes (400 subscription.invalid_secret); a valid one is used", async () => {
    for (const secret of [
      "abc",
      "whsec_" + Buffer.alloc(16, 7).toString("base64"),
      "whsec_" + Buffer.alloc(65, 7).toString("base64"),
      "whsec_not*base64",
      "whsec_" + Buffer.alloc(24, 7).toString("base64").replace(/=*$/, "") + "x",
    ]) {
      expectProblem(await create({ url: receiver.url, secret }), 400, "subscription.invalid_secret");
    }
    const secret = "whsec_" + Buffer.alloc(24, 9).toString("base64");
    const sub = await http({ secret });
    expect(sub.secret).toBe(secret);
    receiver.setHandler(challengeAnswerer(secret));
    expect((await post(`${SUBS}/${sub.id}/verify`)).body.state).toBe("Active");
  });

  it("Subscription PendingVerification → verify: the receiver answers the challenge (echo + signed answer) → Active", async () => {
    const sub = await http();
    receiver.setHandler(challengeAnswerer(sub.secret));
    const res = await post(`${SUBS}/${sub.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sub.id, state: "Active", lastVerificationError: null });
    expect(res.body.lastVerificationAt).not.toBeNull();
    const challenge = receiver.forSubscription(sub.id).at(-1)!;
    expect(challenge.headers["webhook-event-type"]).toBe("Webhooks.Registration.Challenge");
    expect(JSON.parse(challenge.body).data.challenge).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("the challenge with a wrong echo, a wrong signature, no signature or a non-2xx answer stays PendingVerification", async () => {
    const sub = await http();
    const otherSecret = "whsec_" + Buffer.alloc(32, 3).toString("base64");
    const cases: [Parameters<typeof receiver.setHandler>[0], RegExp][] = [
      [challengeAnswerer(sub.secret, { echo: "not-the-challenge" }), /does not echo/],
      [challengeAnswerer(sub.secret, { signWith: otherSecret }), /does not verify/],
      [
        (_req, res) =>
          void res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ challenge: JSON.parse(_req.body).data.challenge })),
        /no webhook-signature/,
      ],
      [(_req, res) => void res.writeHead(500).end("boom"), /did not answer 2xx/],
    ];
    for (const [handler, why] of cases) {
      receiver.setHandler(handler);
      const res = await post(`${SUBS}/${sub.id}/verify`);
      expect(res.status).toBe(200);
      expect(res.body.state).toBe("PendingVerification");
      expect(res.body.lastVerificationError).toMatch(why);
    }
    // The failed challenges are in the delivery history, one-shot, never retried.
    const history = await request("GET", `/api/v1/webhooks/deliveries?filter=subscriptionId==${sub.id}`, {
      token: admin,
    });
    expect(history.body.items.map((d: { status: string }) => d.status)).toEqual([
      "failed",
      "failed",
      "failed",
      "failed",
    ]);
  });

  it("subscriptions created through the integrator API verify with any 2xx", async () => {
    const sub = await http({}, integratorA, INT_SUBS);
    expect(sub.state).toBe("PendingVerification");
    receiver.setHandler((_req, res) => void res.writeHead(204).end());
    const res = await post(`${INT_SUBS}/${sub.id}/verify`, integratorA);
    expect(res.body).toMatchObject({ state: "Active", createdVia: "integrator" });
  });

  it("Subscription PendingVerification → enable or disable → 409, unchanged; can only be verified or deleted", async () => {
    const sub = await http();
    for (const action of ["enable", "disable"]) {
      const res = await post(`${SUBS}/${sub.id}/${action}`);
      expectProblem(res, 409, "subscription.invalid_state");
    }
    expect((await request("GET", `${SUBS}/${sub.id}`, { token: admin })).body.state).toBe(
      "PendingVerification",
    );
  });

  it("Subscription Active → disable → Disabled (deliveries off); Disabled → enable → Active", async () => {
    const sub = await verified();
    expect((await post(`${SUBS}/${sub.id}/disable`)).body.state).toBe("Disabled");
    expect((await post(`${SUBS}/${sub.id}/disable`)).body.state).toBe("Disabled");
    expect((await post(`${SUBS}/${sub.id}/enable`)).body.state).toBe("Active");
    expect((await post(`${SUBS}/${sub.id}/enable`)).body.state).toBe("Active");
  });

  it("Subscription any → PATCH with a new URL → PendingVerification; verifying the new URL makes it Active even if it was disabled", async () => {
    const sub = await verified();
    await post(`${SUBS}/${sub.id}/disable`);
    const other = await startReceiver();
    try {
      const same = await request("PATCH", `${SUBS}/${sub.id}`, {
        token: admin,
        body: { url: receiver.url, displayName: "Renamed" },
      });
      expect(same.body).toMatchObject({ state: "Disabled", displayName: "Renamed" });
      const moved = await request("PATCH", `${SUBS}/${sub.id}`, { token: admin, body: { url: other.url } });
      expect(moved.body).toMatchObject({
        state: "PendingVerification",
        url: other.url,
        lastVerificationAt: null,
      });
      other.setHandler(challengeAnswerer(sub.secret));
      expect((await post(`${SUBS}/${sub.id}/verify`)).body.state).toBe("Active");
      expect(other.forSubscription(sub.id)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("Subscription Suspended: suspend and resume only on the tenant-admin surface; resume returns to the interrupted state", async () => {
    const sub = await http({}, integratorA, INT_SUBS);
    receiver.setHandler((_req, res) => void res.writeHead(200).end());
    await post(`${INT_SUBS}/${sub.id}/verify`, integratorA);
    const suspended = await post(`${SUBS}/${sub.id}/suspend`);
    expect(suspended.body.state).toBe("Suspended");
    for (const action of ["enable", "disable", "verify"])
      expectProblem(
        await post(`${INT_SUBS}/${sub.id}/${action}`, integratorA),
        409,
        "subscription.invalid_state",
      );
    expect((await post(`${INT_SUBS}/${sub.id}/suspend`, integratorA)).status).toBe(404);
    expect((await post(`${INT_SUBS}/${sub.id}/resume`, integratorA)).status).toBe(404);
    expect((await post(`${SUBS}/${sub.id}/resume`)).body.state).toBe("Active");
    // A new URL while suspended keeps the suspension; resume then needs a verification.
    await post(`${SUBS}/${sub.id}/suspend`);
    const other = await startReceiver();
    try {
      const moved = await request("PATCH", `${INT_SUBS}/${sub.id}`, {
        token: integratorA,
        body: { url: other.url },
      });
      expect(moved.body.state).toBe("Suspended");
      expect((await post(`${SUBS}/${sub.id}/resume`)).body.state).toBe("PendingVerification");
    } finally {
      await other.close();
    }
  });

  it("secret rotation answers the new secret once, with a 24-hour overlap by default or the one asked for", async () => {
    const sub = await http();
    const rotated = await post(`${SUBS}/${sub.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(sub.secret);
    const overlap = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    const short = await post(`${SUBS}/${sub.id}/secret`, admin, { overlapSeconds: 60 });
    expect(Date.parse(short.body.previousSecretExpiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    const none = await post(`${SUBS}/${sub.id}/secret`, admin, { overlapSeconds: 0 });
    expect(none.body.previousSecretExpiresAt).toBeNull();
  });

  it("the integrator surface sees only the credential's own subscriptions: another integration's answers 404, never 403", async () => {
    const mine = await http({}, integratorA, INT_SUBS);
    const theirs = await http({}, integratorB, INT_SUBS);
    const list = await request("GET", `${INT_SUBS}?pageSize=100`, { token: integratorA });
    const ids = list.body.items.map((s: { id: string }) => s.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    for (const [method, suffix] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/verify"],
      ["POST", "/enable"],
      ["POST", "/secret"],
      ["POST", "/test-fire"],
      ["GET", "/test-fire/preview"],
      ["POST", "/replay"],
    ]) {
      const res = await request(method, `${INT_SUBS}/${theirs.id}${suffix}`, {
        token: integratorA,
        body: method === "PATCH" ? { displayName: "x" } : method === "POST" ? {} : undefined,
      });
      expectProblem(res, 404, "license.not_found");
    }
    // An admin-created subscription is not the integrator's either; the tenant admin sees them all.
    const adminOwned = await http();
    expectProblem(
      await request("GET", `${INT_SUBS}/${adminOwned.id}`, { token: integratorA }),
      404,
      "license.not_found",
    );
    const all = await request("GET", `${SUBS}?pageSize=100&filter=createdVia==integrator`, { token: admin });
    expect(all.body.items.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([mine.id, theirs.id]),
    );
  });

  it("another tenant's subscription answers 404; missing token 401; wrong scope 403", async () => {
    const sub = await http();
    const other = await createTestTenant("Other webhooks");
    const otherAdmin = await other.token("provision.webhook.*");
    expectProblem(await request("GET", `${SUBS}/${sub.id}`, { token: otherAdmin }), 404, "license.not_found");
    expectProblem(
      await request("DELETE", `${SUBS}/${sub.id}`, { token: otherAdmin }),
      404,
      "license.not_found",
    );
    expectProblem(await request("GET", SUBS), 401, "auth.unauthenticated");
    expectProblem(await request("GET", INT_SUBS), 401, "auth.unauthenticated");
    expectProblem(
      await request("GET", SUBS, { token: await tenant.token("provision.tag.*") }),
      403,
      "auth.insufficient_scope",
    );
    expectProblem(await request("GET", INT_SUBS, { token: admin }), 403, "auth.insufficient_scope");
    expectProblem(await request("GET", SUBS, { token: integratorA }), 403, "auth.insufficient_scope");
    const readOnly = await tenant.token("provision.webhook.read");
    expectProblem(await post(`${SUBS}/${sub.id}/verify`, readOnly), 403, "auth.insufficient_scope");
  });

  it("lists are paginated and filter by state (query or Sieve); unknown Sieve fields are a 400", async () => {
    const fresh = await createTestTenant("Webhook lists");
    const token = await fresh.token("provision.webhook.*");
    for (let i = 0; i < 3; i++)
      await request("POST", SUBS, {
        token,
        body: { displayName: `Sub ${i}`, url: receiver.url, eventTypePatterns: ["*"] },
      });
    await request("POST", SUBS, {
      token,
      body: { displayName: "Cap", targetKind: "Capture", eventTypePatterns: ["*"] },
    });
    const page = await request("GET", `${SUBS}?pageSize=2&sortOrder=displayName`, { token });
    expect(page.body).toMatchObject({ totalCount: 4, totalPages: 2, pageSize: 2, hasNextPage: true });
    expect(page.body.items.map((s: { displayName: string }) => s.displayName)).toEqual(["Cap", "Sub 0"]);
    expect((await request("GET", `${SUBS}?state=PendingVerification`, { token })).body.totalCount).toBe(3);
    expect((await request("GET", `${SUBS}?filter=state==Active`, { token })).body.totalCount).toBe(1);
    expect(
      (await request("GET", `${SUBS}?filter=targetKind==Capture,displayName@=Ca`, { token })).body.totalCount,
    ).toBe(1);
    expectProblem(
      await request("GET", `${SUBS}?filter=secretSealed==x`, { token }),
      400,
      "license.validation_error",
    );
    expectProblem(await request("GET", `${SUBS}?state=Nope`, { token }), 400, "license.validation_error");
  });

  it("PATCH is a merge with optimistic concurrency; DELETE removes the subscription (204, then 404)", async () => {
    const sub = await http({ filters: { attributeEquality: { planCode: "PRO" } } });
    const renamed = await request("PATCH", `${SUBS}/${sub.id}`, {
      token: admin,
      body: { displayName: "New name", filters: null, revisionNumber: 1 },
    });
    expect(renamed.body).toMatchObject({
      displayName: "New name",
      filters: { attributeEquality: { planCode: "PRO" } },
      revisionNumber: 2,
    });
    expectProblem(
      await request("PATCH", `${SUBS}/${sub.id}`, {
        token: admin,
        body: { displayName: "Stale", revisionNumber: 1 },
      }),
      409,
      "concurrency.revision_mismatch",
    );
    const del = await request("DELETE", `${SUBS}/${sub.id}`, { token: admin });
    expect(del.status).toBe(204);
    expectProblem(await request("GET", `${SUBS}/${sub.id}`, { token: admin }), 404, "license.not_found");
    expectProblem(await request("DELETE", `${SUBS}/${sub.id}`, { token: admin }), 404, "license.not_found");
  });
});
