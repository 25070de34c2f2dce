import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { ENTITLEMENTS, entitlementCatalog, makeEntitlement, ok } from "../../helpers/entitlements.ts";
import { activateLicense } from "../../helpers/runtime.ts";

const OP = "/api/v1/provision/operational/entitlements";
const DAY = 86_400_000;
const renew = (id: string) => `${OP}/${id}/renew`;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

type Envelope = { type: string; data: Record<string, unknown> };

describe("operational renew (POST /operational/entitlements/{id}/renew)", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let opToken: string;
  let cat: Awaited<ReturnType<typeof entitlementCatalog>>;

  beforeAll(async () => {
    tenant = await createTestTenant("Renew");
    other = await createTestTenant("Renew other");
    cat = await entitlementCatalog(tenant);
    token = cat.token;
    opToken = await tenant.token("provision.entitlement-adm.create");
  });

  const renewedEvents = async (entitlementId: string): Promise<Envelope[]> =>
    (
      await testDb().webhookEnvelope.findMany({
        where: { tenantId: tenant.tenantId, entityId: entitlementId, type: "Entitlement.Renewed" },
        orderBy: { time: "asc" },
      })
    ).map((e) => JSON.parse(e.payload) as Envelope);
  const renewals = (entitlementId: string) =>
    testDb().entitlementRenewal.findMany({
      where: { tenantId: tenant.tenantId, entitlementId },
      orderBy: { renewedAt: "asc" },
    });
  const expiring = (days: number, body: Record<string, unknown> = {}) =>
    makeEntitlement(token, {
      name: "Yearly",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Basic",
      reference: "PO-77",
      expirationDateTime: inDays(days),
      ...body,
    });

  it("renew extends expirationDateTime, records the renewal and emits Entitlement.Renewed with the routing keys, previous and new expiration", async () => {
    const ent = await expiring(10);
    const next = inDays(375);
    const renewed = ok(
      await request("POST", renew(ent.id), { token: opToken, body: { expirationDateTime: next } }),
    );
    expect(renewed).toMatchObject({
      id: ent.id,
      expirationDateTime: next,
      revisionNumber: ent.revisionNumber + 1,
      planName: "Basic",
    });
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).expirationDateTime).toBe(next);
    const rows = await renewals(ent.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].previousExpirationDateTime.toISOString()).toBe(ent.expirationDateTime);
    expect(rows[0].expirationDateTime.toISOString()).toBe(next);
    expect(rows[0].renewedBy).toMatch(/^client:/);
    const events = await renewedEvents(ent.id);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      entitlementId: ent.id,
      planCode: "Basic",
      planSetId: cat.planSet.id,
      reference: "PO-77",
      billing: { provider: "manual" },
      previousExpirationDateTime: ent.expirationDateTime,
      expirationDateTime: next,
      renewedAtUtc: expect.any(String),
    });
  });

  it("renew with the same Idempotency-Key answers the stored response and renews once; another body under the key is 409", async () => {
    const ent = await expiring(5);
    const key = `renew-${randomUUID()}`;
    const body = { expirationDateTime: inDays(100) };
    const headers = { "idempotency-key": key };
    const [a, b] = await Promise.all([
      request("POST", renew(ent.id), { token: opToken, body, headers }),
      request("POST", renew(ent.id), { token: opToken, body, headers }),
    ]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    expect(b.body).toEqual(a.body);
    expect([a.headers.get("idempotent-replayed"), b.headers.get("idempotent-replayed")]).toContain("true");
    expect(await renewals(ent.id)).toHaveLength(1);
    expect(await renewedEvents(ent.id)).toHaveLength(1);
    expectProblem(
      await request("POST", renew(ent.id), {
        token: opToken,
        body: { expirationDateTime: inDays(200) },
        headers,
      }),
      409,
      "idempotency.key_reused",
    );
    expect(await renewals(ent.id)).toHaveLength(1);
  });

  it("renewing to the current expiration changes nothing and emits nothing", async () => {
    const ent = await expiring(3);
    const same = ok(
      await request("POST", renew(ent.id), {
        token: opToken,
        body: { expirationDateTime: ent.expirationDateTime },
      }),
    );
    expect(same.revisionNumber).toBe(ent.revisionNumber);
    expect(await renewals(ent.id)).toHaveLength(0);
    expect(await renewedEvents(ent.id)).toHaveLength(0);
  });

  it("a renewal never shortens: an earlier expirationDateTime is 400 entitlement.renewal_shortens and changes nothing", async () => {
    const ent = await expiring(30);
    expectProblem(
      await request("POST", renew(ent.id), { token: opToken, body: { expirationDateTime: inDays(20) } }),
      400,
      "entitlement.renewal_shortens",
    );
    expect(ok(await request("GET", `${ENTITLEMENTS}/${ent.id}`, { token })).expirationDateTime).toBe(
      ent.expirationDateTime,
    );
    expect(await renewals(ent.id)).toHaveLength(0);
  });

  it("only a Published entitlement with an expiration can be renewed, to a date in the future; an archived one is read-only", async () => {
    const perpetual = await makeEntitlement(token, { name: "Perpetual", productIds: [cat.product.id] });
    expectProblem(
      await request("POST", renew(perpetual.id), { token: opToken, body: { expirationDateTime: inDays(9) } }),
      400,
      "entitlement.not_renewable",
    );
    const draft = await expiring(5, { status: "Draft" });
    expectProblem(
      await request("POST", renew(draft.id), { token: opToken, body: { expirationDateTime: inDays(9) } }),
      400,
      "entitlement.not_renewable",
    );
    const lapsed = await expiring(-10, { notValidBeforeDateTime: inDays(-40) });
    expectProblem(
      await request("POST", renew(lapsed.id), { token: opToken, body: { expirationDateTime: inDays(-5) } }),
      400,
      "entitlement.not_renewable",
    );
    const archived = await expiring(5);
    ok(await request("DELETE", `${ENTITLEMENTS}/${archived.id}`, { token }), 204);
    expectProblem(
      await request("POST", renew(archived.id), { token: opToken, body: { expirationDateTime: inDays(9) } }),
      400,
      "entitlement.archived",
    );
    expect(await renewedEvents(perpetual.id)).toHaveLength(0);
  });

  it("renew moves a manual billing record's currentPeriodEnd; a NotBillable record is left alone", async () => {
    const billed = await expiring(2, {
      billing: { provider: "manual", mode: "OperatorManaged", method: "Invoice", interval: "Year" },
    });
    const notBillable = await expiring(2);
    const next = inDays(367);
    ok(await request("POST", renew(billed.id), { token: opToken, body: { expirationDateTime: next } }));
    ok(await request("POST", renew(notBillable.id), { token: opToken, body: { expirationDateTime: next } }));
    expect(ok(await request("GET", `${ENTITLEMENTS}/${billed.id}/billing`, { token })).currentPeriodEnd).toBe(
      next,
    );
    expect(
      ok(await request("GET", `${ENTITLEMENTS}/${notBillable.id}/billing`, { token })).currentPeriodEnd,
    ).toBeNull();
  });

  it("a renewed license activates again: past its grace it is refused license.expired, after renew it activates", async () => {
    const ent = await expiring(-2, {
      notValidBeforeDateTime: inDays(-30),
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "PT1H",
        numberOfSeats: 2,
        isFloatingLicense: false,
      },
    });
    const codeToken = await tenant.token("provision.activation-code.create");
    const issued = ok(
      await request("POST", `${OP}/${ent.id}/activation-codes`, { token: codeToken, body: {} }),
    );
    const activation = { activationCode: issued.codes[0].code, fingerprint: `renew-${randomUUID()}` };
    expectProblem(await activateLicense(activation), 403, "license.expired");
    ok(await request("POST", renew(ent.id), { token: opToken, body: { expirationDateTime: inDays(365) } }));
    const activated = ok(await activateLicense(activation));
    expect(activated.license).toMatchObject({ entitlementId: ent.id, state: "Active" });
  });

  it("invalid bodies are 400 license.validation_error and change nothing", async () => {
    const ent = await expiring(5);
    for (const body of [
      {},
      { expirationDateTime: "next year" },
      { expirationDateTime: inDays(9), extra: 1 },
    ]) {
      expectProblem(
        await request("POST", renew(ent.id), { token: opToken, body }),
        400,
        "license.validation_error",
      );
    }
    expect(await renewals(ent.id)).toHaveLength(0);
  });

  it("renew needs provision.entitlement-adm.create (401 without a token, 403 with read only); another tenant's entitlement is 404", async () => {
    const ent = await expiring(5);
    const body = { expirationDateTime: inDays(9) };
    expectProblem(await request("POST", renew(ent.id), { body }), 401, "auth.unauthenticated");
    const readOnly = await tenant.token("provision.entitlement-adm.read");
    expectProblem(
      await request("POST", renew(ent.id), { token: readOnly, body }),
      403,
      "auth.insufficient_scope",
    );
    const foreign = await other.token("provision.entitlement-adm.create");
    expectProblem(await request("POST", renew(ent.id), { token: foreign, body }), 404, "license.not_found");
    expectProblem(
      await request("POST", renew(randomUUID()), { token: opToken, body }),
      404,
      "license.not_found",
    );
    expect(await renewals(ent.id)).toHaveLength(0);
  });
});
