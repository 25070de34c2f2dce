import type { ServerResponse } from "node:http";
import type { Runner } from "graphile-worker";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { eventually, startReceiver, startWorker, stopWorker, type Receiver } from "../../helpers/webhooks.ts";
import {
  activeSubscription,
  captureSubscription,
  deleteAllSubscriptions,
  emit,
  eventsFor,
  INT_SUBS,
  SUBS,
} from "../../helpers/webhook-fixtures.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { revokeClient } from "../../../server/domain/identity/oauth-clients.ts";
import {
  deliveryCaps,
  ON_DEMAND_SENDS_PER_MINUTE,
} from "../../../server/domain/webhooks/delivery/settings.ts";

const allowance = (clientId: string) =>
  `/api/v1/webhooks/integrator-clients/${clientId}/callback-scope-allowance`;

/** docs/security.md "Webhooks": each test is named after the defect it reproduces. */
describe("webhook security fixes", () => {
  let tenant: TestTenant;
  let admin: string;
  let receiver: Receiver;
  let runner: Runner;

  /** An integrator credential: its token and its OAuth client row id (from the token's claims). */
  const integration = async () => {
    const token = await tenant.token("webhooks.integrator");
    const { cid } = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { cid: string };
    return { token, clientId: cid };
  };
  /** Integrator subscriptions verify with any 2xx (docs/api.md "Subscriptions"). */
  const verifiedIntegratorSubscription = async (token: string, body: Record<string, unknown> = {}) => {
    const created = await request("POST", INT_SUBS, {
      token,
      body: { displayName: "Integration", url: receiver.url, eventTypePatterns: ["*"], ...body },
    });
    expect(created.status, created.text).toBe(201);
    const verified = await request("POST", `${INT_SUBS}/${created.body.id}/verify`, { token });
    expect(verified.body.state, verified.text).toBe("Active");
    return created.body.id as string;
  };
  /** The callback token of a test-fire's delivery. */
  const callbackTokenOf = async (token: string, subscriptionId: string) => {
    const fired = await request("POST", `${INT_SUBS}/${subscriptionId}/test-fire`, { token, body: {} });
    expect(fired.status, fired.text).toBe(202);
    const delivery = await eventually(() =>
      eventsFor(receiver, subscriptionId).find((r) => r.headers["webhook-id"] === fired.body.envelopeId),
    );
    return delivery.headers["webhook-callback-token"];
  };

  beforeAll(async () => {
    tenant = await createTestTenant("Webhook security");
    admin = await tenant.token("provision.webhook.*");
    receiver = await startReceiver();
    runner = await startWorker();
  });
  afterEach(() => deleteAllSubscriptions(tenant.tenantId));
  afterAll(async () => {
    await stopWorker(runner);
    await receiver?.close();
  });

  it("callback scopes escalate privileges: an integrator gets only the callback scopes its tenant admin allowed (none by default), and an admin credential only scopes it holds", async () => {
    const { token, clientId } = await integration();
    // The reported escalation: activation codes and balance mutations through the callback token.
    for (const callbackScopes of [["provision.activation-code.read"], ["provision.balance.create"]]) {
      const refused = await request("POST", INT_SUBS, {
        token,
        body: { displayName: "x", url: receiver.url, eventTypePatterns: ["*"], callbackScopes },
      });
      expectProblem(refused, 403, "subscription.callback_scope_not_granted");
      expect(refused.body.code).toBe(4070);
    }
    const plain = await verifiedIntegratorSubscription(token);
    expectProblem(
      await request("PATCH", `${INT_SUBS}/${plain}`, {
        token,
        body: { callbackScopes: ["provision.activation-code.read"] },
      }),
      403,
      "subscription.callback_scope_not_granted",
    );
    expect((await request("GET", allowance(clientId), { token: admin })).body.callbackScopes).toEqual([]);

    // An admin credential allows only what it holds itself; staff may allow any callback scope.
    expectProblem(
      await request("PUT", allowance(clientId), {
        token: admin,
        body: { callbackScopes: ["provision.tag.read"] },
      }),
      403,
      "subscription.callback_scope_not_granted",
    );
    const tagAdmin = await tenant.token("provision.webhook.* provision.tag.*");
    const set = await request("PUT", allowance(clientId), {
      token: tagAdmin,
      body: { callbackScopes: ["provision.tag.read"] },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ id: clientId, callbackScopes: ["provision.tag.read"] });
    expectProblem(
      await request("PUT", allowance(clientId), {
        token: tagAdmin,
        body: { callbackScopes: ["provision.*"] },
      }),
      400,
      "subscription.invalid_callback_scope",
    );
    const adminClientId = JSON.parse(Buffer.from(admin.split(".")[1], "base64url").toString()).cid as string;
    expectProblem(
      await request("PUT", allowance(adminClientId), { token: tagAdmin, body: { callbackScopes: [] } }),
      400,
      "client.not_integrator",
    );

    // Within its allowance the integration's callback token works, and only for what was allowed.
    const sub = await verifiedIntegratorSubscription(token, { callbackScopes: ["provision.tag.read"] });
    const callback = await callbackTokenOf(token, sub);
    expect((await request("GET", "/api/v1/provision/admin/tags", { token: callback })).status).toBe(200);
    expectProblem(
      await request("GET", "/api/v1/provision/operational/activation-codes", { token: callback }),
      403,
      "auth.insufficient_scope",
    );
    // Narrowing the allowance narrows the integration's subscriptions at once.
    const narrowed = await request("PUT", allowance(clientId), {
      token: tagAdmin,
      body: { callbackScopes: [] },
    });
    expect(narrowed.body).toMatchObject({ callbackScopes: [], subscriptionsNarrowed: 1 });
    expect((await request("GET", `${INT_SUBS}/${sub}`, { token })).body.callbackScopes).toEqual([]);
  });

  it("revoking a client leaves its subscriptions and callback tokens working: revocation disables them (state, reason, event) and their callback tokens fail at once", async () => {
    const { token, clientId } = await integration();
    const tagAdmin = await tenant.token("provision.webhook.* provision.tag.read");
    await request("PUT", allowance(clientId), {
      token: tagAdmin,
      body: { callbackScopes: ["provision.tag.read"] },
    });
    const sub = await verifiedIntegratorSubscription(token, { callbackScopes: ["provision.tag.read"] });
    const pending = await request("POST", INT_SUBS, {
      token,
      body: { displayName: "not yet verified", url: receiver.url, eventTypePatterns: ["*"] },
    });
    const watcher = await captureSubscription(admin, {
      eventTypePatterns: ["Webhooks.Subscription.StateChanged"],
    });
    const callback = await callbackTokenOf(token, sub);
    expect((await request("GET", "/api/v1/provision/admin/tags", { token: callback })).status).toBe(200);

    await revokeClient(systemContext(testDb(), tenant.tenantId, "test"), clientId);

    expectProblem(
      await request("GET", "/api/v1/provision/admin/tags", { token: callback }),
      401,
      "auth.unauthenticated",
    );
    for (const id of [sub, pending.body.id as string]) {
      const after = await request("GET", `${SUBS}/${id}`, { token: admin });
      expect(after.body).toMatchObject({ state: "Disabled" });
      expect(after.body.stateReason).toMatch(/revoked/);
    }
    const captured = await eventually(async () => {
      const res = await request("GET", `${SUBS}/${watcher}/captured-events`, { token: admin });
      return res.body.totalCount === 2 && res.body.items;
    });
    expect(
      captured
        .map((c: { envelope: { data: Record<string, unknown> } }) => c.envelope.data)
        .sort((a: { previousState: string }, b: { previousState: string }) =>
          a.previousState.localeCompare(b.previousState),
        ),
    ).toMatchObject([
      { subscriptionId: sub, previousState: "Active", state: "Disabled", reason: "ClientRevoked" },
      { subscriptionId: pending.body.id, previousState: "PendingVerification", state: "Disabled" },
    ]);
    // Events emitted after the revocation reach it no more.
    const after = await emit(tenant, "User.Created");
    await eventually(async () => {
      const res = await request("GET", `/api/v1/webhooks/deliveries?filter=envelopeId==${after.id}`, {
        token: admin,
      });
      return (
        res.body.totalCount === 0 &&
        (await testDb().webhookEnvelope.findUnique({ where: { id: after.id } }))?.fannedOutAt
      );
    });
  });

  it("one tenant can starve webhook delivery for all: test-fire and verify are limited per subscription per minute (429 with Retry-After)", async () => {
    const sub = await captureSubscription(admin);
    for (let i = 0; i < ON_DEMAND_SENDS_PER_MINUTE; i++)
      expect((await request("POST", `${SUBS}/${sub}/test-fire`, { token: admin, body: {} })).status).toBe(
        202,
      );
    const refused = await request("POST", `${SUBS}/${sub}/test-fire`, { token: admin, body: {} });
    expectProblem(refused, 429, "subscription.send_rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);

    const { token } = await integration();
    const http = await request("POST", INT_SUBS, {
      token,
      body: { displayName: "v", url: receiver.url, eventTypePatterns: ["*"] },
    });
    const verifies = await Promise.all(
      Array.from({ length: ON_DEMAND_SENDS_PER_MINUTE + 3 }, () =>
        request("POST", `${INT_SUBS}/${http.body.id}/verify`, { token }),
      ),
    );
    expect(verifies.filter((r) => r.status === 200)).toHaveLength(ON_DEMAND_SENDS_PER_MINUTE);
    for (const r of verifies.filter((v) => v.status !== 200))
      expectProblem(r, 429, "subscription.send_rate_limited");
  });

  it("one tenant can starve webhook delivery for all: a tenant whose receivers hang holds at most its concurrency caps, and another tenant's events still go out", async () => {
    const caps = deliveryCaps();
    const slow = await startReceiver();
    const held: ServerResponse[] = [];
    let maxHeld = 0;
    const perSubscription = new Map<string, number>();
    let maxPerSubscription = 0;
    slow.setHandler((req, res) => {
      if (req.headers["webhook-event-type"] === "Webhooks.Registration.Challenge")
        return void res.writeHead(200).end();
      held.push(res);
      maxHeld = Math.max(maxHeld, held.length);
      const sub = req.headers["webhook-subscription"];
      perSubscription.set(sub, (perSubscription.get(sub) ?? 0) + 1);
      maxPerSubscription = Math.max(maxPerSubscription, perSubscription.get(sub)!);
    });
    const noisy = await createTestTenant("Noisy tenant");
    const noisyToken = await noisy.token("webhooks.integrator");
    const other = await createTestTenant("Quiet tenant");
    const otherAdmin = await other.token("provision.webhook.*");
    try {
      const noisySubs: string[] = [];
      const subscriptions = 5;
      for (let i = 0; i < subscriptions; i++) {
        const created = await request("POST", INT_SUBS, {
          token: noisyToken,
          body: { displayName: `hanging ${i}`, url: slow.url, eventTypePatterns: ["User.Created"] },
        });
        await request("POST", `${INT_SUBS}/${created.body.id}/verify`, { token: noisyToken });
        noisySubs.push(created.body.id);
      }
      const events = 30;
      for (let i = 0; i < events; i++) await emit(noisy, "User.Created");
      // 150 deliveries due; the tenant's receivers take whatever they are given and never answer.
      const cap = Math.min(caps.perTenant, subscriptions * caps.perSubscription, subscriptions * events);
      await eventually(() => held.length === cap, 20_000, "the noisy tenant's slots to fill");
      expect(
        await testDb().webhookDelivery.count({ where: { tenantId: noisy.tenantId, status: "sending" } }),
      ).toBe(cap);

      const quiet = await startReceiver();
      try {
        const created = await activeSubscription(quiet, otherAdmin, { eventTypePatterns: ["User.Deleted"] });
        const event = await emit(other, "User.Deleted");
        await eventually(() =>
          eventsFor(quiet, created.id).some((r) => r.headers["webhook-id"] === event.id),
        );
      } finally {
        await quiet.close();
      }
      expect(maxHeld).toBe(cap);
      expect(maxPerSubscription).toBeLessThanOrEqual(caps.perSubscription);
    } finally {
      for (const res of held) res.writeHead(200).end();
      await deleteAllSubscriptions(noisy.tenantId);
      await slow.close();
    }
  });
});
