import { systemContext } from "../../../server/domain/context.ts";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  insertEntitlement,
  insertSession,
  makeCustomerUser,
  makeOrganization,
} from "../../helpers/licensing-fixtures.ts";
import { conformsToPolicy } from "../../../server/domain/licensing/activation-codes/activation-code-format.ts";
import { findActivationCodeByInput } from "../../../server/domain/licensing/activation-codes/find-activation-code.ts";
import { ZKeyIssuancePolicy } from "../../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { createUser } from "../../../server/domain/identity/users.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { seedActivationCode, seedDemoSessions } from "../../../scripts/seed/licensing.ts";

const OP = "/api/v1/provision/operational";
const issuePath = (id: string) => `${OP}/entitlements/${id}/activation-codes`;

describe("activation codes", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Codes");
    other = await createTestTenant("Codes other");
    token = await tenant.token("provision.activation-code.*");
    otherToken = await other.token("provision.activation-code.*");
  });

  it("issues codes that follow the entitlement's keyIssuancePolicy, with a per-code device limit", async () => {
    const entitlement = await insertEntitlement(tenant);
    const res = await request("POST", issuePath(entitlement.id), {
      token,
      body: { count: 3, deviceLimit: 2 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.entitlementId).toBe(entitlement.id);
    expect(res.body.codes).toHaveLength(3);
    const policy = ZKeyIssuancePolicy.parse({});
    for (const code of res.body.codes) {
      expect(code).toMatchObject({
        entitlementId: entitlement.id,
        status: "Active",
        deviceLimit: 2,
        devicesInUse: 0,
        sequenceNumber: null,
        revokedAt: null,
      });
      expect(code.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
      expect(conformsToPolicy(code.code, policy)).toBe(true);
    }
    expect(new Set(res.body.codes.map((c: { code: string }) => c.code)).size).toBe(3);
  });

  it("sequence placeholders and checksum: the entitlement-scoped sequence advances atomically under parallel issuance", async () => {
    const keyIssuancePolicy = {
      template: "ACME-XXXX-XXXX-####-?",
      checksum: "LuhnModN" as const,
      sequenceStart: 100,
      caseStyle: "Lower" as const,
    };
    const entitlement = await insertEntitlement(tenant, { keyIssuancePolicy });
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => request("POST", issuePath(entitlement.id), { token, body: { count: 5 } })),
    );
    for (const r of results) expect(r.status, r.text).toBe(200);
    const codes = results.flatMap((r) => r.body.codes as { code: string; sequenceNumber: number }[]);
    expect(codes.map((c) => c.sequenceNumber).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => 100 + i),
    );
    const policy = ZKeyIssuancePolicy.parse(keyIssuancePolicy);
    for (const c of codes) {
      expect(conformsToPolicy(c.code, policy)).toBe(true);
      expect(c.code.slice(15, 19)).toBe(String(c.sequenceNumber).padStart(4, "0"));
    }
    const stored = await testDb().entitlement.findUniqueOrThrow({ where: { id: entitlement.id } });
    expect((stored.keyIssuancePolicy as { sequenceCurrent: number }).sequenceCurrent).toBe(119);
  });

  it("editing an entitlement's keyIssuancePolicy never moves sequenceCurrent back: codes keep their numbers", async () => {
    const keyIssuancePolicy = { template: "SEQ-XXXX-XXXX-XXXX-####", sequenceStart: 1 };
    const entitlement = await insertEntitlement(tenant, { keyIssuancePolicy });
    expect((await request("POST", issuePath(entitlement.id), { token, body: { count: 3 } })).status).toBe(
      200,
    );
    const admin = await tenant.token("provision.entitlement-adm.*");
    const patched = await request("PATCH", `/api/v1/provision/admin/entitlements/${entitlement.id}`, {
      token: admin,
      body: { keyIssuancePolicy: { ...keyIssuancePolicy, sequenceCurrent: 0 } },
    });
    expect(patched.status, patched.text).toBe(200);
    const stored = await testDb().entitlement.findUniqueOrThrow({ where: { id: entitlement.id } });
    expect((stored.keyIssuancePolicy as { sequenceCurrent: number }).sequenceCurrent).toBe(3);
    const next = await request("POST", issuePath(entitlement.id), { token, body: { count: 1 } });
    expect(next.body.codes[0].sequenceNumber).toBe(4);
  });

  it("a tenant-scoped sequence is shared by the tenant's entitlements", async () => {
    const keyIssuancePolicy = {
      template: "XXXX-XXXX-XXXX-###",
      sequenceScope: "Tenant" as const,
      sequenceStart: 1,
    };
    const a = await insertEntitlement(tenant, { keyIssuancePolicy });
    const b = await insertEntitlement(tenant, { keyIssuancePolicy });
    const first = await request("POST", issuePath(a.id), { token, body: { count: 2 } });
    const second = await request("POST", issuePath(b.id), { token, body: { count: 2 } });
    expect(
      [...first.body.codes, ...second.body.codes].map((c: { sequenceNumber: number }) => c.sequenceNumber),
    ).toEqual([1, 2, 3, 4]);
    const parallel = await Promise.all(
      [a, b, a, b].map((e) => request("POST", issuePath(e.id), { token, body: { count: 3 } })),
    );
    const numbers = parallel
      .flatMap((r) => r.body.codes.map((c: { sequenceNumber: number }) => c.sequenceNumber))
      .sort((x: number, y: number) => x - y);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => 5 + i));
  });

  it("refuses issuance once the sequence no longer fits the template", async () => {
    const entitlement = await insertEntitlement(tenant, {
      keyIssuancePolicy: { template: "XXXX-XXXX-XXXX-#", sequenceStart: 8 },
    });
    expect((await request("POST", issuePath(entitlement.id), { token, body: { count: 2 } })).status).toBe(
      200,
    );
    expectProblem(
      await request("POST", issuePath(entitlement.id), { token, body: { count: 1 } }),
      409,
      "activation_code.sequence_exhausted",
    );
  });

  it("refuses issuance when the policy is disabled or the entitlement archived", async () => {
    const disabled = await insertEntitlement(tenant, { keyIssuancePolicy: { enabled: false } });
    expectProblem(
      await request("POST", issuePath(disabled.id), { token, body: {} }),
      400,
      "activation_code.issuance_disabled",
    );
    const archived = await insertEntitlement(tenant, { status: "Archived" });
    expectProblem(
      await request("POST", issuePath(archived.id), { token, body: {} }),
      400,
      "activation_code.issuance_disabled",
    );
  });

  it("validates the request, answers 404 for unknown and foreign entitlements, 401 without token, 403 with a wrong scope", async () => {
    const entitlement = await insertEntitlement(tenant);
    expectProblem(
      await request("POST", issuePath(entitlement.id), { token, body: { count: 0 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", issuePath(entitlement.id), { token, body: { count: 101 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", issuePath(entitlement.id), { token, body: { deviceLimit: 0 } }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("POST", issuePath(randomUUID()), { token, body: {} }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", issuePath(entitlement.id), { token: otherToken, body: {} }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", issuePath(entitlement.id), { body: {} }),
      401,
      "auth.unauthenticated",
    );
    const wrong = await tenant.token("provision.device.*");
    expectProblem(
      await request("POST", issuePath(entitlement.id), { token: wrong, body: {} }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("codes are unique across the whole service: lookup by any normalized variant is one query that needs no tenant", async () => {
    const entitlement = await insertEntitlement(tenant);
    const issued = (await request("POST", issuePath(entitlement.id), { token, body: {} })).body.codes[0];
    const variant = ` ${issued.code.toLowerCase().replace(/-/g, "").replace(/0/g, "o").replace(/1/g, "l")} `;
    const found = await findActivationCodeByInput(testDb(), variant);
    expect(found).toMatchObject({ id: issued.id, tenantId: tenant.tenantId, entitlementId: entitlement.id });
    expect(await findActivationCodeByInput(testDb(), issued.code.slice(0, -1))).toBeNull();
    // Another code of the same license never answers this input.
    const other = (await request("POST", issuePath(entitlement.id), { token, body: {} })).body.codes[0];
    expect((await findActivationCodeByInput(testDb(), other.code))?.id).toBe(other.id);
    expect((await findActivationCodeByInput(testDb(), variant))?.id).toBe(issued.id);
    const indexes = await testDb().$queryRaw<
      { indexdef: string }[]
    >`SELECT indexdef FROM pg_indexes WHERE tablename = 'ActivationCode' AND indexdef LIKE '%UNIQUE%'`;
    expect(indexes.map((i) => i.indexdef).join("\n")).toMatch(
      /UNIQUE INDEX "ActivationCode_lookupKey_key" .*\("lookupKey"\)/,
    );
  });

  it("a code whose policy turns normalization off matches only its exact form", async () => {
    const entitlement = await insertEntitlement(tenant, {
      keyIssuancePolicy: {
        normalizeCaseInsensitive: false,
        normalizeStripSeparators: false,
        normalizeMapConfusables: false,
      },
    });
    const issued = (await request("POST", issuePath(entitlement.id), { token, body: {} })).body.codes[0];
    expect((await findActivationCodeByInput(testDb(), issued.code))?.id).toBe(issued.id);
    expect(await findActivationCodeByInput(testDb(), issued.code.replace(/-/g, ""))).toBeNull();
    expect(await findActivationCodeByInput(testDb(), issued.code.toLowerCase())).toBeNull();
  });

  it("lists codes with Sieve filters and pagination; other tenants' codes never appear", async () => {
    const entitlement = await insertEntitlement(tenant);
    await request("POST", issuePath(entitlement.id), { token, body: { count: 3, deviceLimit: 5 } });
    const foreign = await insertEntitlement(other);
    await request("POST", issuePath(foreign.id), { token: otherToken, body: { count: 2 } });
    const page = await request(
      "GET",
      `${OP}/activation-codes?filter=entitlementId==${entitlement.id}&pageSize=2&sortOrder=createdAt`,
      { token },
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({ totalCount: 3, totalPages: 2, pageSize: 2, hasNextPage: true });
    const foreignList = await request("GET", `${OP}/activation-codes?filter=entitlementId==${foreign.id}`, {
      token,
    });
    expect(foreignList.body.totalCount).toBe(0);
    expectProblem(
      await request("GET", `${OP}/activation-codes?filter=lookupKey==x`, { token }),
      400,
      "license.validation_error",
    );
    expect((await request("GET", `${OP}/activation-codes?filter=deviceLimit==null`, { token })).status).toBe(
      200,
    );
  });

  it("revokes a code by its text (any variant) or id; revoking again changes nothing; foreign codes are 404", async () => {
    const entitlement = await insertEntitlement(tenant);
    const [a, b] = (await request("POST", issuePath(entitlement.id), { token, body: { count: 2 } })).body
      .codes;
    const revoked = await request(
      "POST",
      `${OP}/activation-codes/${encodeURIComponent(a.code.toLowerCase())}/revoke`,
      { token },
    );
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ id: a.id, status: "Revoked", revokedAt: expect.any(String) });
    const again = await request("POST", `${OP}/activation-codes/${a.id}/revoke`, { token });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    expectProblem(
      await request("POST", `${OP}/activation-codes/${b.code}/revoke`, { token: otherToken }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${OP}/activation-codes/NOPE-NOPE/revoke`, { token }),
      404,
      "license.not_found",
    );
    const wrong = await tenant.token("provision.activation-code.read");
    expectProblem(
      await request("POST", `${OP}/activation-codes/${b.id}/revoke`, { token: wrong }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("devicesInUse counts distinct devices with unrevoked sessions through the code", async () => {
    const entitlement = await insertEntitlement(tenant);
    const code = (await request("POST", issuePath(entitlement.id), { token, body: { deviceLimit: 3 } })).body
      .codes[0];
    await insertSession(tenant, entitlement.id, { fingerprint: "machine-a", activationCodeId: code.id });
    await insertSession(tenant, entitlement.id, { fingerprint: "machine-a", activationCodeId: code.id });
    await insertSession(tenant, entitlement.id, { fingerprint: "machine-b", activationCodeId: code.id });
    const list = await request("GET", `${OP}/activation-codes?filter=id==${code.id}`, { token });
    expect(list.body.items[0]).toMatchObject({ devicesInUse: 2, deviceLimit: 3 });
  });

  it("GET /consumer/me/activation-codes lists codes of entitlements assigned to the signed-in user (directly or through an organization)", async () => {
    const password = "correct horse battery staple";
    const user = await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
      email: `ada-${randomUUID().slice(0, 8)}@example.com`,
      password,
      kind: "consumer",
    });
    const customer = await makeCustomerUser(tenant, { userId: user.id, email: user.email });
    const mine = await insertEntitlement(tenant, { customerKind: "User", customerId: customer.id });
    const notMine = await insertEntitlement(tenant);
    const myCode = (await request("POST", issuePath(mine.id), { token, body: {} })).body.codes[0];
    await request("POST", issuePath(notMine.id), { token, body: {} });
    const tokenRes = await request("POST", "/auth/connect/token", {
      rawBody: new URLSearchParams({ grant_type: "password", username: user.email, password }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(tokenRes.status, tokenRes.text).toBe(200);
    const list = await request("GET", "/api/v1/provision/consumer/me/activation-codes", {
      token: tokenRes.body.access_token,
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([myCode.id]);
    const org = await makeOrganization(tenant, { name: "Ada's company", memberIds: [customer.id] });
    const orgEntitlement = await insertEntitlement(tenant, {
      customerKind: "Organization",
      customerId: org.id,
    });
    const orgCode = (await request("POST", issuePath(orgEntitlement.id), { token, body: {} })).body.codes[0];
    const withOrg = await request(
      "GET",
      "/api/v1/provision/consumer/me/activation-codes?sortOrder=createdAt",
      { token: tokenRes.body.access_token },
    );
    expect(withOrg.body.items.map((c: { id: string }) => c.id)).toEqual([myCode.id, orgCode.id]);
    expectProblem(
      await request("GET", "/api/v1/provision/consumer/me/activation-codes", {}),
      401,
      "auth.unauthenticated",
    );
    expectProblem(
      await request("GET", "/api/v1/provision/consumer/me/activation-codes", { token }),
      401,
      "auth.unauthenticated",
    );
  });

  it("the demo seed issues one code on the first Published entitlement, once", async () => {
    const seedTenant = await createTestTenant("Seed");
    const ctx = {
      tenantId: seedTenant.tenantId,
      actor: { kind: "system" as const, id: "seed" },
      db: tenantDb(testDb(), seedTenant.tenantId),
    };
    expect(await seedActivationCode(ctx)).toBeNull();
    const entitlement = await insertEntitlement(seedTenant);
    const first = await seedActivationCode(ctx);
    expect(first).toMatchObject({
      entitlementId: entitlement.id,
      code: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/),
    });
    expect(await seedActivationCode(ctx)).toEqual(first);
    // Two demo devices activate it; seeding again returns the same sessions.
    const sessions = await seedDemoSessions(testDb(), first!.code);
    expect(sessions).toHaveLength(2);
    expect(await seedDemoSessions(testDb(), first!.code)).toEqual(sessions);
    expect(
      await testDb().licenseSession.count({ where: { entitlementId: entitlement.id, revokedAt: null } }),
    ).toBe(2);
  });
});
