import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request } from "../../helpers/api.ts";
import { entitlementCatalog, makeOffer, ok } from "../../helpers/entitlements.ts";
import { ACTIVATIONS } from "../../helpers/runtime.ts";
import { TEST_METRICS_TOKEN } from "../../helpers/test-server.ts";

/**
 * Issue 21 item 11: anonymous tries are answered with a license, and the activations report
 * counts them, but `licensing_activations_total` did not. They count under `kind="anonymous_try"`.
 */

async function activationsOfKind(kind: string): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/metrics`, {
    headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const line = text.split("\n").find((l) => l.startsWith(`licensing_activations_total{kind="${kind}"} `));
  if (!line) return -1;
  return Number(line.split(" ")[1]);
}

// Many requests per test: a loaded machine outruns the default 30 s.
describe("metrics disagree with reports: anonymous tries count as activations", { timeout: 180_000 }, () => {
  let offerId: string;
  beforeAll(async () => {
    const tenant = await createTestTenant("Metrics anonymous try");
    const cat = await entitlementCatalog(tenant);
    const offer = await makeOffer(cat.token, {
      name: "Metrics trial",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Pro",
      allowAnonymousTry: true,
      validityDays: 14,
    });
    offerId = offer.id;
  });

  it("three anonymous tries answered with a license add three to licensing_activations_total{kind=anonymous_try}", async () => {
    const before = await activationsOfKind("anonymous_try");
    expect(before, "the exposition has an anonymous_try sample").toBeGreaterThanOrEqual(0);
    for (let i = 0; i < 3; i++) {
      const answer = ok(
        await request("POST", `${ACTIVATIONS}/anonymous-try`, {
          body: { offerId, fingerprint: `metrics-try-${randomUUID()}`, deviceName: "Laptop" },
        }),
      );
      expect(answer.license.state).toBe("Trial");
    }
    // A refused try (an unknown offer) carries no license and adds nothing of this kind.
    const refused = await request("POST", `${ACTIVATIONS}/anonymous-try`, {
      body: { offerId: randomUUID(), fingerprint: `metrics-try-${randomUUID()}` },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    // Other files share the server and may try too between the scrapes: at least our three.
    expect(await activationsOfKind("anonymous_try")).toBeGreaterThanOrEqual(before + 3);
    expect(await activationsOfKind("online")).toBeGreaterThanOrEqual(0);
  });
});
