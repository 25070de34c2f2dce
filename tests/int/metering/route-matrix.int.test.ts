import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { allContracts } from "../../../server/http/contracts/index.ts";
import type { Contract } from "../../../server/http/contract.ts";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { meteredLicense, record, type Session } from "../../helpers/metering.ts";

/** docs/architecture.md section 9 for every metering route: no credential 401, the wrong one 401/403, another tenant's ids 404. */
describe("every usage route: 401 without a token, 401 with another session's token, 403 with a wrong scope, 404 for another tenant's ids", () => {
  const routes = allContracts.filter(
    (c) => c.path.startsWith("/api/v1/provision/usage") || c.path.endsWith("/meters"),
  );
  let tenant: TestTenant;
  let mine: Session;
  let theirs: Session;
  let theirEntitlement: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Usage matrix");
    const other = await createTestTenant("Usage matrix other");
    mine = await (await meteredLicense(tenant, { metrics: [{ metricName: "events" }] })).session();
    const foreign = await meteredLicense(other, { metrics: [{ metricName: "events" }] });
    theirs = await foreign.session();
    theirEntitlement = foreign.entitlement.id;
  });

  const pathFor = (c: Contract, ids: { sessionId: string; entitlementId: string }) =>
    c.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === "sessionId" ? ids.sessionId : name === "metric" ? "events" : ids.entitlementId,
    ) + (c.path.includes("consume") ? "?amount=1" : "");
  const bodyFor = (c: Contract) =>
    c.path.endsWith("/transactions")
      ? [record({ eventName: "events" })]
      : c.path.endsWith("/answers")
        ? { campaignId: randomUUID(), featureCatalogId: randomUUID(), rating: 1 }
        : undefined;

  it("covers the usage surface", () => {
    expect(routes.map((c) => `${c.method} ${c.path}`).sort()).toEqual(
      [
        "GET /api/v1/provision/operational/entitlements/{id}/meters",
        "GET /api/v1/provision/usage/sessions/{sessionId}/rating-prompt",
        "GET /api/v1/provision/usage/{sessionId}/{metric}/consumption",
        "GET /api/v1/provision/usage/{sessionId}/{metric}/usage",
        "POST /api/v1/provision/usage/consume/{sessionId}/{metric}",
        "POST /api/v1/provision/usage/entitlements/{entitlementId}/transactions",
        "POST /api/v1/provision/usage/preview-consume/{sessionId}/{metric}",
        "POST /api/v1/provision/usage/sessions/{sessionId}/rating-prompt/answers",
        "POST /api/v1/provision/usage/sessions/{sessionId}/transactions",
      ].sort(),
    );
  });

  it("session routes refuse a missing token and another session's (or tenant's) token with 401 license.session_token_rejected", async () => {
    for (const c of routes.filter((r) => r.auth.kind === "license")) {
      const path = pathFor(c, { sessionId: theirs.sessionId, entitlementId: "" });
      expectProblem(
        await request(c.method, path, { body: bodyFor(c) }),
        401,
        "license.session_token_rejected",
      );
      expectProblem(
        await request(c.method, path, { body: bodyFor(c), token: mine.token }),
        401,
        "license.session_token_rejected",
      );
    }
  });

  it("client routes: 401 without a token, 403 with a wrong scope, 404 for another tenant's entitlement", async () => {
    const right = await tenant.token("provision.usage.*");
    const wrong = await tenant.token("provision.balance.*");
    for (const c of routes.filter((r) => r.auth.kind === "client")) {
      const path = pathFor(c, { sessionId: "", entitlementId: theirEntitlement });
      expectProblem(await request(c.method, path, { body: bodyFor(c) }), 401, "auth.unauthenticated");
      expectProblem(
        await request(c.method, path, { body: bodyFor(c), token: wrong }),
        403,
        "auth.insufficient_scope",
      );
      expectProblem(
        await request(c.method, path, { body: bodyFor(c), token: right }),
        404,
        "license.not_found",
      );
    }
  });
});
