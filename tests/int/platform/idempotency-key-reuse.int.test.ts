import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { makeProduct } from "../../helpers/catalog-products.ts";
import { entitlementCatalog, makeOffer, ok } from "../../helpers/entitlements.ts";
import { consume, meteredLicense, ok200 } from "../../helpers/metering.ts";
import { ACTIVATIONS, activateJwt, activateLicense, licensedEntitlement } from "../../helpers/runtime.ts";

/**
 * The Idempotency-Key rule: one key names one request. The same key with the same code and
 * fingerprint but any other parameter is 409 `idempotency.key_reused` and changes nothing, on
 * every keyed operation: activation (the key is durable on the session it made, and the request's
 * identity is kind, code, fingerprint, interactive user, productCode, processId and components),
 * the anonymous try, every authenticated REST mutation (the stored request is method, path and
 * body), and a consumption decision's `idempotencyKey`. A key refused only for another
 * fingerprint (which another check refuses too) cannot tell whether the request itself is
 * compared; these change one parameter at a time.
 */
const fp = () => `fp-${randomUUID()}`;
const key = () => `key-${randomUUID()}`;

// Many activations per test on a shared machine: more time than the suite's 30 s.
describe(
  "Idempotency-Key reused for another request → 409 idempotency.key_reused",
  { timeout: 90_000 },
  () => {
    let tenant: TestTenant;

    beforeAll(async () => {
      tenant = await createTestTenant("Key reuse");
    });

    const sessionsOf = (entitlementId: string) => testDb().licenseSession.count({ where: { entitlementId } });

    for (const [route, activate] of [
      ["jwt", activateJwt],
      ["license", activateLicense],
    ] as const) {
      it(`activation (/activations/${route}): same key, code and fingerprint with another processId, productCode or components → 409; the identical request replays`, async () => {
        const productToken = await tenant.token("provision.product.*");
        const [editor, viewer] = [
          await makeProduct(productToken, { name: "Editor" }),
          await makeProduct(productToken, { name: "Viewer" }),
        ];
        const { entitlement, code } = await licensedEntitlement(tenant, {
          productIds: [editor.id, viewer.id],
          claimBasedActivation: { numberOfSeats: 5, isFloatingLicense: true },
        });
        const fingerprint = fp();
        const k = key();
        const original = {
          activationCode: code,
          fingerprint,
          processId: "100",
          productCode: editor.productCode,
          components: { cpu: "a".repeat(64), disk: "b".repeat(64) },
        };
        const first = await activate(original, { "idempotency-key": k });
        expect(first.status, first.text).toBe(200);
        const replay = await activate(original, { "idempotency-key": k });
        expect(replay.status, replay.text).toBe(200);
        expect(await sessionsOf(entitlement.id)).toBe(1);

        const others: [string, Record<string, unknown>][] = [
          ["processId", { ...original, processId: "200" }],
          ["productCode", { ...original, productCode: viewer.productCode }],
          ["components", { ...original, components: { cpu: "a".repeat(64), disk: "c".repeat(64) } }],
          ["components left out", { ...original, components: undefined }],
        ];
        for (const [changed, body] of others) {
          const res = await activate(body, { "idempotency-key": k });
          expect(res.status, `${changed}: ${res.text}`).toBe(409);
          expectProblem(res, 409, "idempotency.key_reused");
        }
        expect(await sessionsOf(entitlement.id)).toBe(1);
        // Without the key the other process is a request of its own, and takes a seat of its own.
        const unkeyed = await activate({ ...original, processId: "200" });
        expect(unkeyed.status, unkeyed.text).toBe(200);
        expect(await sessionsOf(entitlement.id)).toBe(2);
      });
    }

    it("anonymous try: same key, offer and fingerprint with another processId → 409", async () => {
      const cat = await entitlementCatalog(tenant);
      const offer = await makeOffer(cat.token, {
        name: "Key reuse trial",
        productIds: [cat.product.id],
        planSetId: cat.planSet.id,
        planName: "Pro",
        allowAnonymousTry: true,
        validityDays: 14,
        claimBasedActivation: {
          leaseTime: "PT1H",
          gracePeriod: "P1D",
          numberOfSeats: 3,
          isFloatingLicense: true,
        },
      });
      const k = key();
      const body = { offerId: offer.id, fingerprint: fp(), processId: "1" };
      const tryOut = (b: Record<string, unknown>) =>
        request("POST", `${ACTIVATIONS}/anonymous-try`, { body: b, headers: { "idempotency-key": k } });
      const first = ok(await tryOut(body));
      expect(ok(await tryOut(body)).sessionId).toBe(first.sessionId);
      expectProblem(await tryOut({ ...body, processId: "2" }), 409, "idempotency.key_reused");
      expect(
        await testDb().licenseSession.count({ where: { entitlementId: first.anonymousTry.entitlementId } }),
      ).toBe(1);
    });

    describe("authenticated REST mutations: the stored request is method, path and body", () => {
      const TAGS = "/api/v1/provision/admin/tags";
      let token: string;
      const tag = async (name: string) => {
        const res = await request("POST", TAGS, { token, body: { scope: "Product", name } });
        expect(res.status, res.text).toBe(201);
        return res.body.id as string;
      };
      const tagName = async (id: string) => (await request("GET", `${TAGS}/${id}`, { token })).body.name;

      beforeAll(async () => {
        token = await tenant.token([
          "provision.tag.*",
          "provision.customer.*",
          "provision.activation-code.*",
        ]);
      });

      it("create: another body under the key → 409, nothing created", async () => {
        const k = key();
        const first = await request("POST", "/api/v1/provision/admin/customers/users", {
          token,
          body: { email: "first@key-reuse.example.com" },
          headers: { "idempotency-key": k },
        });
        expect(first.status, first.text).toBe(201);
        expectProblem(
          await request("POST", "/api/v1/provision/admin/customers/users", {
            token,
            body: { email: "second@key-reuse.example.com" },
            headers: { "idempotency-key": k },
          }),
          409,
          "idempotency.key_reused",
        );
        const list = await request(
          "GET",
          `/api/v1/provision/admin/customers/users?filter=email==second@key-reuse.example.com`,
          { token },
        );
        expect(list.body.totalCount).toBe(0);
      });

      it("update: the same body on another resource's path → 409, the other resource unchanged", async () => {
        const [a, b] = [await tag(`Path-a-${randomUUID().slice(0, 6)}`), await tag(`Path-b`)];
        const k = key();
        const patch = (id: string) =>
          request("PATCH", `${TAGS}/${id}`, {
            token,
            body: { name: "Renamed" },
            headers: { "idempotency-key": k },
          });
        expect((await patch(a)).status).toBe(200);
        expectProblem(await patch(b), 409, "idempotency.key_reused");
        expect(await tagName(b)).toBe("Path-b");
      });

      it("delete: the key used for one resource, then for another → 409, the other kept", async () => {
        const [a, b] = [await tag(`Del-a-${randomUUID().slice(0, 6)}`), await tag("Del-b")];
        const k = key();
        const remove = (id: string) =>
          request("DELETE", `${TAGS}/${id}`, { token, headers: { "idempotency-key": k } });
        expect((await remove(a)).status).toBeLessThan(300);
        expectProblem(await remove(b), 409, "idempotency.key_reused");
        expect((await request("GET", `${TAGS}/${b}`, { token })).status).toBe(200);
      });

      it("another method on the same path with the same body → 409", async () => {
        const id = await tag(`Method-${randomUUID().slice(0, 6)}`);
        const k = key();
        expect(
          (await request("PATCH", `${TAGS}/${id}`, { token, body: {}, headers: { "idempotency-key": k } }))
            .status,
        ).toBe(200);
        expectProblem(
          await request("DELETE", `${TAGS}/${id}`, { token, headers: { "idempotency-key": k } }),
          409,
          "idempotency.key_reused",
        );
        expect((await request("GET", `${TAGS}/${id}`, { token })).status).toBe(200);
      });

      it("issuing activation codes: another deviceLimit under the key → 409, no second code", async () => {
        const { entitlement } = await licensedEntitlement(tenant);
        const path = `/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`;
        const k = key();
        const issue = (body: Record<string, unknown>) =>
          request("POST", path, { token, body, headers: { "idempotency-key": k } });
        expect((await issue({ deviceLimit: 1 })).status).toBe(200);
        expectProblem(await issue({ deviceLimit: 2 }), 409, "idempotency.key_reused");
        // licensedEntitlement issued one code, the keyed request one more.
        expect(await testDb().activationCode.count({ where: { entitlementId: entitlement.id } })).toBe(2);
      });
    });

    it("consumption decision: the same idempotencyKey for another metric → 409, nothing counted on it", async () => {
      const license = await meteredLicense(tenant, {
        metrics: [
          { metricName: "api-calls", metered: {} },
          { metricName: "exports", metered: {} },
        ],
        features: [
          { metricName: "api-calls", value: "10" },
          { metricName: "exports", value: "10" },
        ],
      });
      const s = await license.session();
      ok200(await consume(s, "api-calls", 4, { idempotencyKey: "job-7" }));
      expectProblem(
        await consume(s, "exports", 4, { idempotencyKey: "job-7" }),
        409,
        "idempotency.key_reused",
      );
      expect(ok200(await consume(s, "exports", 1)).usage).toBe(1);
    });
  },
);
