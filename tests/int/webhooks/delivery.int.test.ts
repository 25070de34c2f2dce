import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import type { Runner } from "graphile-worker";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  eventually,
  startReceiver,
  startWorker,
  stopWorker,
  verifyDelivery,
  type Receiver,
} from "../../helpers/webhooks.ts";
import {
  activeSubscription,
  deleteAllSubscriptions,
  emit,
  eventsFor,
  INT_SUBS,
  SUBS,
} from "../../helpers/webhook-fixtures.ts";
import { joinable, tenantDb } from "../../../server/db/tenant-db.ts";
import { adminAccess } from "../../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { emitEvent } from "../../../server/domain/webhooks/events/emit-event.ts";
import { fanOutEnvelope } from "../../../server/domain/webhooks/events/fan-out.ts";
import { findEventType } from "../../../server/domain/webhooks/events/event-types.ts";
import { disableSubscription } from "../../../server/domain/webhooks/subscriptions/disable-subscription.ts";

describe("webhook delivery (real worker, real receiver, independent verification)", () => {
  let tenant: TestTenant;
  let admin: string;
  let runner: Runner;
  let receiver: Receiver;

  beforeAll(async () => {
    tenant = await createTestTenant("Webhook delivery");
    admin = await tenant.token("provision.webhook.*");
    receiver = await startReceiver();
    runner = await startWorker();
  });
  // Each test starts without the previous tests' subscriptions (and their deliveries).
  afterEach(() => deleteAllSubscriptions(tenant.tenantId));
  afterAll(async () => {
    await stopWorker(runner);
    await receiver?.close();
  });

  it("delivers a committed event to each matching Active subscription: Standard Webhooks signature, CloudEvents envelope, docs/api.md's headers", async () => {
    const all = await activeSubscription(receiver, admin, { eventTypePatterns: ["*"] });
    const exact = await activeSubscription(receiver, admin, { eventTypePatterns: ["Entitlement.Activated"] });
    const other = await activeSubscription(receiver, admin, { eventTypePatterns: ["User.Created"] });
    const disabled = await activeSubscription(receiver, admin, { eventTypePatterns: ["*"] });
    await request("POST", `${SUBS}/${disabled.id}/disable`, { token: admin });
    const entitlementId = randomUUID();
    const envelope = await emit(tenant, "Entitlement.Activated", { entitlementId });

    const a = await eventually(() => eventsFor(receiver, all.id)[0], 15_000, "delivery to *");
    const b = await eventually(() => eventsFor(receiver, exact.id)[0], 15_000, "delivery to exact");
    for (const [req, sub] of [
      [a, all],
      [b, exact],
    ] as const) {
      const event = verifyDelivery(req, sub.secret);
      expect(req.headers).toMatchObject({
        "webhook-id": envelope.id,
        "webhook-event-type": "Entitlement.Activated",
        "webhook-delivery-attempt": "1",
        "webhook-tenant": tenant.tenantId,
        "webhook-subscription": sub.id,
        "content-type": "application/cloudevents+json; charset=utf-8",
      });
      expect(Math.abs(Number(req.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
      expect(req.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      expect(req.headers).not.toHaveProperty("webhook-callback-token");
      expect(event).toMatchObject({
        id: envelope.id,
        type: "Entitlement.Activated",
        source: `urn:licensing:tenant:${tenant.tenantId}`,
        subject: envelope.subject,
        datacontenttype: "application/json",
        tenantid: tenant.tenantId,
        entitykind: "entitlement",
        entityid: entitlementId,
        eventversion: 1,
      });
      expect(event.data).toMatchObject({ entitlementId, planCode: "PRO", billing: { provider: "stripe" } });
      expect(req.body).toBe(JSON.stringify(envelope));
    }
    const list = await request("GET", `/api/v1/webhooks/deliveries?filter=envelopeId==${envelope.id}`, {
      token: admin,
    });
    expect(list.body.items.map((d: { subscriptionId: string }) => d.subscriptionId).sort()).toEqual(
      [all.id, exact.id].sort(),
    );
    await eventually(
      async () =>
        (
          await request(
            "GET",
            `/api/v1/webhooks/deliveries?filter=envelopeId==${envelope.id},status==succeeded`,
            { token: admin },
          )
        ).body.totalCount === 2,
    );
    expect(eventsFor(receiver, other.id)).toHaveLength(0);
    expect(eventsFor(receiver, disabled.id)).toHaveLength(0);
  });

  it("an event whose change rolls back is never delivered", async () => {
    const local = await startReceiver();
    try {
      const sub = await activeSubscription(local, admin, { eventTypePatterns: ["*"] });
      const rolledBack = randomUUID();
      let envelopeId: string | undefined;
      await expect(
        tenantDb(testDb(), tenant.tenantId).$transaction(async (tx) => {
          envelopeId = (
            await emitEvent(tx, {
              tenantId: tenant.tenantId,
              type: "User.Deleted",
              entityKind: "user",
              entityId: rolledBack,
              subject: `users/${rolledBack}`,
              data: { userId: rolledBack, externalReference: null, origin: "admin", userType: "Consumer" },
            })
          ).id;
          throw new Error("the change fails");
        }),
      ).rejects.toThrow("the change fails");
      const committed = await emit(tenant, "User.Deleted", { userId: randomUUID() });
      await eventually(
        () => eventsFor(local, sub.id).some((r) => r.headers["webhook-id"] === committed.id),
        15_000,
        "the committed event",
      );
      expect(eventsFor(local, sub.id).map((r) => r.headers["webhook-id"])).toEqual([committed.id]);
      expect(await testDb().webhookEnvelope.count({ where: { id: envelopeId } })).toBe(0);
    } finally {
      await local.close();
    }
  });

  it("at-least-once: a receiver that fails twice then succeeds gets the event with webhook-delivery-attempt 3 and the same webhook-id", async () => {
    const local = await startReceiver();
    try {
      const sub = await activeSubscription(local, admin, { eventTypePatterns: ["Organization.Created"] });
      let calls = 0;
      local.setHandler(
        (_req, res) =>
          void (++calls <= 2 ? res.writeHead(503).end("busy, try later") : res.writeHead(200).end("thanks")),
      );
      const envelope = await emit(tenant, "Organization.Created");
      const received = await eventually(
        () => (eventsFor(local, sub.id).length >= 3 ? eventsFor(local, sub.id) : undefined),
        20_000,
        "three attempts",
      );
      expect(received.map((r) => r.headers["webhook-id"])).toEqual([envelope.id, envelope.id, envelope.id]);
      expect(received.map((r) => r.headers["webhook-delivery-attempt"])).toEqual(["1", "2", "3"]);
      for (const r of received) verifyDelivery(r, sub.secret);
      const detail = await eventually(async () => {
        const res = await request("GET", `/api/v1/webhooks/deliveries/${envelope.id}`, { token: admin });
        return res.body.status === "succeeded" && res.body;
      });
      expect(detail).toMatchObject({
        attemptCount: 3,
        lastResponseStatus: 200,
        lastError: null,
        requestBody: received[2].body,
      });
      expect(
        detail.attempts.map((a: { status: string; responseStatus: number; responseExcerpt: string }) => [
          a.status,
          a.responseStatus,
          a.responseExcerpt,
        ]),
      ).toEqual([
        ["failed", 503, "busy, try later"],
        ["failed", 503, "busy, try later"],
        ["succeeded", 200, "thanks"],
      ]);
      expect(detail.attempts[0].requestHeaders).toMatchObject({
        "webhook-id": envelope.id,
        "webhook-delivery-attempt": "1",
      });
      expect(detail.attempts.every((a: { durationMs: number }) => a.durationMs >= 0)).toBe(true);
    } finally {
      await local.close();
    }
  });

  it("the same change emitted twice keeps its envelope id and is delivered once", async () => {
    const local = await startReceiver();
    try {
      const sub = await activeSubscription(local, admin, { eventTypePatterns: ["User.Created"] });
      const changeKey = `user-created:${randomUUID()}`;
      const first = await emit(tenant, "User.Created", {}, { changeKey });
      const second = await emit(tenant, "User.Created", { firstName: "Changed" }, { changeKey });
      expect(second.id).toBe(first.id);
      await eventually(() => eventsFor(local, sub.id).length === 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(eventsFor(local, sub.id)).toHaveLength(1);
      expect(JSON.parse(eventsFor(local, sub.id)[0].body).data.firstName).toBe("Ada");
    } finally {
      await local.close();
    }
  });

  it("secret rotation: during the overlap webhook-signature carries both signatures and either secret verifies; without overlap only the new one", async () => {
    const local = await startReceiver();
    try {
      const sub = await activeSubscription(local, admin, { eventTypePatterns: ["*"] });
      const rotated = await request("POST", `${SUBS}/${sub.id}/secret`, { token: admin, body: {} });
      const fired = await request("POST", `${SUBS}/${sub.id}/test-fire`, { token: admin, body: {} });
      const delivery = await eventually(() =>
        eventsFor(local, sub.id).find((r) => r.headers["webhook-id"] === fired.body.envelopeId),
      );
      expect(delivery.headers["webhook-signature"].split(" ")).toHaveLength(2);
      verifyDelivery(delivery, sub.secret);
      verifyDelivery(delivery, rotated.body.secret);

      const again = await request("POST", `${SUBS}/${sub.id}/secret`, {
        token: admin,
        body: { overlapSeconds: 0 },
      });
      const fired2 = await request("POST", `${SUBS}/${sub.id}/test-fire`, { token: admin, body: {} });
      const single = await eventually(() =>
        eventsFor(local, sub.id).find((r) => r.headers["webhook-id"] === fired2.body.envelopeId),
      );
      expect(single.headers["webhook-signature"].split(" ")).toHaveLength(1);
      verifyDelivery(single, again.body.secret);
      expect(() => new Webhook(rotated.body.secret).verify(single.body, single.headers)).toThrow();
    } finally {
      await local.close();
    }
  });

  it("webhook-callback-token: a 5-minute JWT with exactly the subscription's callback scopes, accepted as a bearer token while the subscription is Active", async () => {
    const local = await startReceiver();
    try {
      // The creating credential holds the scope it grants (docs/security.md "Webhooks").
      const granting = await tenant.token("provision.webhook.* provision.tag.read");
      const sub = await activeSubscription(local, granting, {
        eventTypePatterns: ["*"],
        callbackScopes: ["provision.tag.read"],
      });
      const fired = await request("POST", `${SUBS}/${sub.id}/test-fire`, {
        token: admin,
        body: { eventType: "User.Created" },
      });
      const delivery = await eventually(() =>
        eventsFor(local, sub.id).find((r) => r.headers["webhook-id"] === fired.body.envelopeId),
      );
      verifyDelivery(delivery, sub.secret);
      const token = delivery.headers["webhook-callback-token"];
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({
        aud: "callback",
        sub: sub.id,
        tid: tenant.tenantId,
        scope: "provision.tag.read",
      });
      expect(claims.exp! - claims.iat!).toBe(300);
      expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(200);
      expectProblem(
        await request("POST", "/api/v1/provision/admin/tags", {
          token,
          body: { scope: "Product", name: "x" },
        }),
        403,
        "auth.insufficient_scope",
      );
      expectProblem(await request("GET", SUBS, { token }), 403, "auth.insufficient_scope");
      expectProblem(
        await request("GET", "/api/v1/webhooks/integrator/subscriptions", { token }),
        401,
        "auth.unauthenticated",
      );
      const detail = await request("GET", `/api/v1/webhooks/deliveries/${fired.body.envelopeId}`, {
        token: admin,
      });
      expect(detail.body.attempts[0].requestHeaders).not.toHaveProperty("webhook-callback-token");
      await request("POST", `${SUBS}/${sub.id}/disable`, { token: admin });
      expectProblem(
        await request("GET", "/api/v1/provision/admin/tags", { token }),
        401,
        "auth.unauthenticated",
      );
    } finally {
      await local.close();
    }
  });

  it("test-fire sends the sample event (_test: true, covered by the signature) through the full pipeline; preview shows the exact envelope and enqueues nothing", async () => {
    const local = await startReceiver();
    try {
      const sub = await activeSubscription(local, admin, {
        eventTypePatterns: ["Entitlement.SeatActivated", "User.Created"],
      });
      const envelopesBefore = await testDb().webhookEnvelope.count({ where: { tenantId: tenant.tenantId } });
      const preview = await request("GET", `${SUBS}/${sub.id}/test-fire/preview`, { token: admin });
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({
        type: "Entitlement.SeatActivated",
        entityid: "00000000-0000-4000-8000-000000000001",
        data: { _test: true, sessionId: "00000000-0000-4000-8000-000000000004" },
      });
      expect(await testDb().webhookEnvelope.count({ where: { tenantId: tenant.tenantId } })).toBe(
        envelopesBefore,
      );
      const userPreview = await request("GET", `${SUBS}/${sub.id}/test-fire/preview?eventType=User.Created`, {
        token: admin,
      });
      expect(userPreview.body).toMatchObject({ type: "User.Created", entitykind: "user" });

      const fired = await request("POST", `${SUBS}/${sub.id}/test-fire`, {
        token: admin,
        body: { eventType: "User.Created" },
      });
      expect(fired.status).toBe(202);
      expect(fired.body).toMatchObject({ eventType: "User.Created" });
      const delivery = await eventually(() =>
        eventsFor(local, sub.id).find((r) => r.headers["webhook-id"] === fired.body.envelopeId),
      );
      const event = verifyDelivery(delivery, sub.secret);
      expect(event.data).toMatchObject({ _test: true, id: "00000000-0000-4000-8000-000000000007" });
      const { id: _a, time: _b, ...sent } = JSON.parse(delivery.body);
      const { id: _c, time: _d, ...previewed } = userPreview.body;
      expect(sent).toEqual(previewed);
      const tampered = delivery.body.replace('"_test":true', '"_test":false');
      expect(() => new Webhook(sub.secret).verify(tampered, delivery.headers)).toThrow();

      expectProblem(
        await request("POST", `${SUBS}/${sub.id}/test-fire`, {
          token: admin,
          body: { eventType: "Webhooks.Registration.Challenge" },
        }),
        400,
        "subscription.invalid_event_type",
      );
      expectProblem(
        await request("GET", `${SUBS}/${sub.id}/test-fire/preview?eventType=Nope.Nope`, { token: admin }),
        400,
        "subscription.invalid_event_type",
      );
      const pending = await request("POST", SUBS, {
        token: admin,
        body: { displayName: "p", url: local.url, eventTypePatterns: ["*"] },
      });
      expectProblem(
        await request("POST", `${SUBS}/${pending.body.id}/test-fire`, { token: admin, body: {} }),
        409,
        "subscription.invalid_state",
      );
    } finally {
      await local.close();
    }
  });

  it("delivery history: deliveries/{envelopeId} needs subscriptionId when the envelope reached several subscriptions (400 delivery.ambiguous_envelope); the integrator's omits request body and response excerpt", async () => {
    const local = await startReceiver();
    try {
      const integrator = await tenant.token("webhooks.integrator");
      const mine = await activeSubscription(
        local,
        integrator,
        { eventTypePatterns: ["Organization.Deleted"] },
        { base: INT_SUBS },
      );
      const adminSub = await activeSubscription(local, admin, {
        eventTypePatterns: ["Organization.Deleted"],
      });
      const envelope = await emit(tenant, "Organization.Deleted");
      await eventually(
        () => eventsFor(local, mine.id).length === 1 && eventsFor(local, adminSub.id).length === 1,
      );
      await eventually(
        async () =>
          (
            await request(
              "GET",
              `/api/v1/webhooks/deliveries?filter=envelopeId==${envelope.id},status==succeeded`,
              { token: admin },
            )
          ).body.totalCount === 2,
      );

      const ambiguous = await request("GET", `/api/v1/webhooks/deliveries/${envelope.id}`, { token: admin });
      expectProblem(ambiguous, 400, "delivery.ambiguous_envelope");
      const chosen = await request(
        "GET",
        `/api/v1/webhooks/deliveries/${envelope.id}?subscriptionId=${adminSub.id}`,
        { token: admin },
      );
      expect(chosen.body).toMatchObject({
        subscriptionId: adminSub.id,
        status: "succeeded",
        attemptCount: 1,
        requestBody: JSON.stringify(envelope),
        envelope: { id: envelope.id },
      });
      expect(chosen.body.attempts[0]).toMatchObject({
        status: "succeeded",
        responseStatus: 200,
        responseExcerpt: "ok",
      });

      // The integrator sees only its own subscription's delivery, so the envelope is not ambiguous there.
      const own = await request("GET", `/api/v1/webhooks/integrator/deliveries/${envelope.id}`, {
        token: integrator,
      });
      expect(own.status, own.text).toBe(200);
      expect(own.body).toMatchObject({
        subscriptionId: mine.id,
        status: "succeeded",
        attempts: [{ status: "succeeded", responseStatus: 200 }],
      });
      expect(own.body).not.toHaveProperty("requestBody");
      expect(own.body).not.toHaveProperty("envelope");
      expect(own.body.attempts[0]).not.toHaveProperty("responseExcerpt");
      expectProblem(
        await request(
          "GET",
          `/api/v1/webhooks/integrator/deliveries/${envelope.id}?subscriptionId=${adminSub.id}`,
          { token: integrator },
        ),
        404,
        "license.not_found",
      );
      const history = await request("GET", "/api/v1/webhooks/integrator/deliveries?pageSize=100", {
        token: integrator,
      });
      expect(new Set(history.body.items.map((d: { subscriptionId: string }) => d.subscriptionId))).toEqual(
        new Set([mine.id]),
      );
      expect(
        (await request("GET", "/api/v1/webhooks/integrator/dead-letters", { token: integrator })).status,
      ).toBe(404);
      expectProblem(
        await request("GET", `/api/v1/webhooks/deliveries?filter=payload==x`, { token: admin }),
        400,
        "license.validation_error",
      );
      expectProblem(
        await request("GET", `/api/v1/webhooks/deliveries/${randomUUID()}`, { token: admin }),
        404,
        "license.not_found",
      );
    } finally {
      await local.close();
    }
  });

  it("dead letters: a delivery whose every attempt fails is dead-lettered; requeue sends it again with the same envelope id", async () => {
    const local = await startReceiver();
    const scale = process.env.WEBHOOKS_RETRY_SCALE;
    process.env.WEBHOOKS_RETRY_SCALE = "0"; // every retry due at once: the eight attempts run back to back
    try {
      const sub = await activeSubscription(
        local,
        admin,
        { eventTypePatterns: ["User.Updated"] },
        { then: (_req, res) => void res.writeHead(500).end("down") },
      );
      const envelope = await emit(tenant, "User.Updated");
      const dead = await eventually(
        async () => {
          const res = await request(
            "GET",
            `/api/v1/webhooks/dead-letters?filter=envelopeId==${envelope.id}`,
            { token: admin },
          );
          return res.body.totalCount === 1 && res.body.items[0];
        },
        20_000,
        "the dead letter",
      );
      expect(dead).toMatchObject({
        status: "dead",
        attemptCount: 8,
        lastResponseStatus: 500,
        subscriptionId: sub.id,
      });
      expect(eventsFor(local, sub.id).map((r) => r.headers["webhook-delivery-attempt"])).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
      ]);

      local.setHandler((_req, res) => void res.writeHead(200).end());
      const requeued = await request("POST", `/api/v1/webhooks/dead-letters/${dead.id}/requeue`, {
        token: admin,
      });
      expect(requeued.status, requeued.text).toBe(200);
      expect(requeued.body.status).toBe("pending");
      const ninth = await eventually(() =>
        eventsFor(local, sub.id).find((r) => r.headers["webhook-delivery-attempt"] === "9"),
      );
      expect(ninth.headers["webhook-id"]).toBe(envelope.id);
      verifyDelivery(ninth, sub.secret);
      await eventually(
        async () =>
          (await request("GET", `/api/v1/webhooks/deliveries/${envelope.id}`, { token: admin })).body
            .status === "succeeded",
      );
      expectProblem(
        await request("POST", `/api/v1/webhooks/dead-letters/${dead.id}/requeue`, { token: admin }),
        409,
        "delivery.not_dead_lettered",
      );
      expectProblem(
        await request("POST", `/api/v1/webhooks/dead-letters/${randomUUID()}/requeue`, { token: admin }),
        404,
        "license.not_found",
      );
    } finally {
      process.env.WEBHOOKS_RETRY_SCALE = scale;
      await local.close();
    }
  });

  it("a delivery whose subscription was disabled before its attempt becomes a dead letter, requeueable once the subscription is Active again", async () => {
    const local = await startReceiver();
    try {
      const sub = await activeSubscription(local, admin, { eventTypePatterns: ["User.Created"] });
      // Fanned out while Active and disabled before its attempt, in one transaction, so that no
      // worker (this file's or another's) can attempt it in between.
      const definition = findEventType("User.Created")!;
      const envelope = await tenantDb(testDb(), tenant.tenantId).$transaction(async (tx) => {
        const ctx = {
          tenantId: tenant.tenantId,
          actor: { kind: "system" as const, id: "test" },
          db: joinable(tx),
        };
        const written = await emitEvent(tx, {
          tenantId: tenant.tenantId,
          type: definition.type,
          entityKind: definition.entityKind,
          entityId: definition.sample.entityId,
          subject: definition.sample.subject,
          data: definition.sample.data,
        });
        expect(await fanOutEnvelope(ctx, written.id)).toBe(1);
        await disableSubscription(ctx, adminAccess, sub.id);
        return written;
      });
      const dead = await eventually(
        async () => {
          const res = await request(
            "GET",
            `/api/v1/webhooks/dead-letters?filter=envelopeId==${envelope.id}`,
            { token: admin },
          );
          return res.body.totalCount === 1 && res.body.items[0];
        },
        15_000,
        "the dead letter",
      );
      expect(dead.lastError).toMatch(/Disabled/);
      expectProblem(
        await request("POST", `/api/v1/webhooks/dead-letters/${dead.id}/requeue`, { token: admin }),
        409,
        "subscription.invalid_state",
      );
      await request("POST", `${SUBS}/${sub.id}/enable`, { token: admin });
      expect(
        (await request("POST", `/api/v1/webhooks/dead-letters/${dead.id}/requeue`, { token: admin })).status,
      ).toBe(200);
      const delivered = await eventually(() =>
        eventsFor(local, sub.id).find((r) => r.headers["webhook-id"] === envelope.id),
      );
      expect(delivered.headers["webhook-delivery-attempt"]).toBe("1");
      verifyDelivery(delivered, sub.secret);
    } finally {
      await local.close();
    }
  });
});
