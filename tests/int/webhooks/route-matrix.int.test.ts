import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { allContracts } from "../../../server/http/contracts/index.ts";
import type { Contract } from "../../../server/http/contract.ts";
import { createTestTenant, expectProblem, request, testDb } from "../../helpers/api.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { emitEvent } from "../../../server/domain/webhooks/events/emit-event.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { fanOutEnvelope } from "../../../server/domain/webhooks/events/fan-out.ts";
import { findEventType } from "../../../server/domain/webhooks/events/event-types.ts";

/** docs/architecture.md section 9 for every webhook route: missing token 401, wrong scope 403, another tenant's ids 404. */
describe("every webhook route: 401 without a token, 403 with a wrong scope, 404 for another tenant's ids", () => {
  const routes = allContracts.filter(
    (c) => c.path.startsWith("/api/v1/webhooks/") && c.auth.kind !== "anonymous",
  );
  const ids: Record<string, string> = {};
  let foreignAdmin: string;
  let foreignIntegrator: string;
  let wrongScope: string;

  const bodyFor = (c: Contract) =>
    c.method === "PATCH"
      ? { displayName: "x" }
      : c.path.endsWith("/replay")
        ? { envelopeIds: [randomUUID()] }
        : c.method === "POST"
          ? {}
          : c.method === "PUT"
            ? { callbackScopes: [] }
            : undefined;
  /** Path ids of the owner tenant: the integrator surface gets its integration's subscription. */
  const pathFor = (c: Contract) =>
    c.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === "id" && c.auth.kind === "integrator" ? ids.integratorId : ids[name],
    );

  beforeAll(async () => {
    const owner = await createTestTenant("Matrix owner");
    const ownerAdmin = await owner.token("provision.webhook.*");
    const ownerIntegrator = await owner.token("webhooks.integrator");
    // The integrator client behind the token (its id is the token's `cid` claim).
    ids.clientId = JSON.parse(Buffer.from(ownerIntegrator.split(".")[1], "base64url").toString()).cid;
    const capture = await request("POST", "/api/v1/webhooks/subscriptions", {
      token: ownerAdmin,
      body: { displayName: "c", targetKind: "Capture", eventTypePatterns: ["*"] },
    });
    const integrated = await request("POST", "/api/v1/webhooks/integrator/subscriptions", {
      token: ownerIntegrator,
      body: { displayName: "i", url: "http://127.0.0.1:9/x", eventTypePatterns: ["*"] },
    });
    expect(integrated.status, integrated.text).toBe(201);
    const definition = findEventType("User.Created")!;
    const envelope = await tenantDb(testDb(), owner.tenantId).$transaction((tx) =>
      emitEvent(tx, {
        tenantId: owner.tenantId,
        type: definition.type,
        entityKind: definition.entityKind,
        entityId: "m",
        subject: "users/m",
        data: definition.sample.data,
      }),
    );
    await fanOutEnvelope(systemContext(testDb(), owner.tenantId, "test"), envelope.id);
    const delivery = await testDb().webhookDelivery.findFirstOrThrow({ where: { envelopeId: envelope.id } });
    Object.assign(ids, {
      id: capture.body.id,
      envelopeId: envelope.id,
      deliveryId: delivery.id,
      integratorId: integrated.body.id,
    });

    const stranger = await createTestTenant("Matrix stranger");
    foreignAdmin = await stranger.token("provision.webhook.*");
    foreignIntegrator = await stranger.token("webhooks.integrator");
    wrongScope = await stranger.token("provision.tag.*");
  });

  it("covers every route of both surfaces", () => {
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it.each(routes.map((c) => [`${c.method} ${c.path}`, c] as const))("%s", async (_name, contract) => {
    const integratorRoute = contract.auth.kind === "integrator";
    const path = pathFor(contract);
    const body = bodyFor(contract);
    expectProblem(await request(contract.method, path, { body }), 401, "auth.unauthenticated");
    expectProblem(
      await request(contract.method, path, { token: integratorRoute ? foreignAdmin : wrongScope, body }),
      403,
      "auth.insufficient_scope",
    );
    if (/\{\w+\}/.test(contract.path)) {
      const res = await request(contract.method, path, {
        token: integratorRoute ? foreignIntegrator : foreignAdmin,
        body,
      });
      expectProblem(res, 404, "license.not_found");
    }
  });
});
