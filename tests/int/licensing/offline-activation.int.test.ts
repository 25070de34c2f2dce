import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createProduct } from "../../../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../../../server/domain/catalog/products/product.schemas.ts";
import { rotateTenantSigningKey } from "../../../server/domain/identity/rotate-tenant-signing-key.ts";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { fingerprintHash } from "../../helpers/licensing-fixtures.ts";
import {
  offlineRequestArtifact,
  verifyOfflineResponse,
  type OfflineResponseArtifact,
} from "../../helpers/offline.ts";
import { licensedEntitlement } from "../../helpers/runtime.ts";

const ISSUE = "/api/v1/provision/operational/activations/offline/issue";
const offline = (claims: Record<string, unknown> = {}) => ({
  claimBasedActivation: { allowOfflineActivation: true, ...claims },
});

describe("offline activation: POST /operational/activations/offline/issue", () => {
  let tenant: TestTenant;
  let token: string;
  let jwks: { keys: { kid?: string }[] };

  beforeAll(async () => {
    tenant = await createTestTenant("Offline");
    token = await tenant.token("provision.offline.create");
    const res = await request("GET", `/api/v1/provision/tenants/${tenant.tenantId}/jwks.json`);
    expect(res.status).toBe(200);
    jwks = res.body;
  });

  const issue = (artifact: unknown, as = token) => request("POST", ISSUE, { token: as, body: artifact });
  async function issued(artifact: unknown) {
    const res = await issue(artifact);
    expect(res.status, res.text).toBe(200);
    const verified = verifyOfflineResponse(jwks as never, res.body as OfflineResponseArtifact);
    expect(verified.verified).toBe(true);
    return { res, license: verified.license };
  }
  const sessionsOf = (entitlementId: string) =>
    testDb().licenseSession.findMany({ where: { entitlementId }, orderBy: { activatedAt: "asc" } });
  const devicesOf = (entitlementId: string) =>
    testDb().device.findMany({ where: { entitlementId }, orderBy: { createdAt: "asc" } });

  it("answers a response artifact whose signature verifies against the tenant JWKS; a tampered payload does not verify", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, {
      ...offline(),
      expirationDateTime: new Date(Date.now() + 30 * 86_400_000),
    });
    const fingerprint = `fp-${randomUUID()}`;
    const artifact = offlineRequestArtifact(code, fingerprint);
    const { res, license } = await issued(artifact);

    expect(Object.keys(res.body).sort()).toEqual(["kid", "signature", "signedPayload"]);
    expect(res.body.signedPayload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(res.body.kid).toBe(jwks.keys[0].kid);
    const [session] = await sessionsOf(entitlement.id);
    expect(session).toMatchObject({ activationKind: "Offline", revokedAt: null });
    expect(license).toMatchObject({
      schemaVersion: 1,
      nonce: artifact.meta.nonce,
      requestedAt: artifact.meta.requestedAt,
      kid: res.body.kid,
      licenseId: session.id,
      sessionId: session.id,
      tenantId: tenant.tenantId,
      entitlementId: entitlement.id,
      entitlementName: entitlement.name,
      state: "Active",
      deviceFingerprintHash: fingerprintHash(fingerprint),
      componentMatchingStrategy: "MatchAll",
      leaseExpiresAt: entitlement.expirationDateTime!.toISOString(),
      graceExpiresAt: session.graceExpiresAt.toISOString(),
      products: [],
      features: {},
    });
    // An offline session is leased until the license ends.
    expect(session.leaseExpiresAt.toISOString()).toBe(entitlement.expirationDateTime!.toISOString());
    expect(Buffer.from(res.body.signedPayload, "base64url").toString("utf8")).not.toContain(fingerprint);

    const decoded = JSON.parse(Buffer.from(res.body.signedPayload, "base64url").toString("utf8"));
    const tampered = Buffer.from(
      JSON.stringify({ ...decoded, leaseExpiresAt: "2099-01-01T00:00:00.000Z" }),
      "utf8",
    ).toString("base64url");
    expect(verifyOfflineResponse(jwks as never, { ...res.body, signedPayload: tampered }).verified).toBe(
      false,
    );
    const flipped = res.body.signature.startsWith("A")
      ? `B${res.body.signature.slice(1)}`
      : `A${res.body.signature.slice(1)}`;
    expect(verifyOfflineResponse(jwks as never, { ...res.body, signature: flipped }).verified).toBe(false);
  });

  describe("schema mismatches are 400 license.validation_error and create nothing", () => {
    const valid = () => offlineRequestArtifact("CODE", `fp-${randomUUID()}`);
    const withMeta = (meta: Record<string, unknown>) => {
      const a = valid();
      return { ...a, meta: { ...a.meta, ...meta } };
    };
    const withBody = (body: Record<string, unknown>) => {
      const a = valid();
      return { ...a, body: { ...a.body, ...body } };
    };
    const without = (part: "meta" | "body", field: string) => {
      const a = valid() as Record<string, Record<string, unknown>>;
      delete a[part][field];
      return a;
    };
    const cases: [string, (code: string) => unknown, string | null][] = [
      ["schemaVersion 2", () => withMeta({ schemaVersion: 2 }), "body.meta.schemaVersion"],
      ["schemaVersion missing", () => without("meta", "schemaVersion"), "body.meta.schemaVersion"],
      [
        "a short nonce (16 bytes)",
        () => withMeta({ nonce: randomBytes(16).toString("base64url") }),
        "body.meta.nonce",
      ],
      [
        "a padded nonce",
        () => withMeta({ nonce: `${randomBytes(32).toString("base64url")}=` }),
        "body.meta.nonce",
      ],
      [
        "a standard-base64 nonce",
        () => withMeta({ nonce: `+/${randomBytes(32).toString("base64url").slice(2)}` }),
        "body.meta.nonce",
      ],
      [
        "a non-canonical nonce (trailing bits set)",
        () => withMeta({ nonce: `${"A".repeat(42)}B` }),
        "body.meta.nonce",
      ],
      ["a missing nonce", () => without("meta", "nonce"), "body.meta.nonce"],
      ["requestedAt not a timestamp", () => withMeta({ requestedAt: "yesterday" }), "body.meta.requestedAt"],
      [
        "requestedAt without a time zone",
        () => withMeta({ requestedAt: "2026-01-01T10:00:00" }),
        "body.meta.requestedAt",
      ],
      ["requestedAt missing", () => without("meta", "requestedAt"), "body.meta.requestedAt"],
      ["activationCode missing", () => without("body", "activationCode"), "body.body.activationCode"],
      ["activationCode empty", () => withBody({ activationCode: "" }), "body.body.activationCode"],
      ["activationCode blank", () => withBody({ activationCode: "   " }), "body.body.activationCode"],
      ["fingerprint missing", () => without("body", "fingerprint"), "body.body.fingerprint"],
      ["fingerprint empty", () => withBody({ fingerprint: "" }), "body.body.fingerprint"],
      ["components an array", () => withBody({ components: ["a", "b"] }), "body.body.components"],
      ["components a string", () => withBody({ components: "MachineName=abc" }), "body.body.components"],
      [
        "components with a non-string hash",
        () => withBody({ components: { MachineName: 42 } }),
        "body.body.components.MachineName",
      ],
      [
        "attestation x5c not an array",
        () => withBody({ attestation: { fingerprint: "x", x5c: "cert" } }),
        "body.body.attestation.x5c",
      ],
      ["an unknown top-level field", () => ({ ...valid(), signature: "x" }), null],
      ["the online activation shape", (code) => ({ activationCode: code, fingerprint: "fp" }), null],
      ["an array", () => [valid()], null],
    ];

    let entitlementId: string;
    let code: string;
    beforeAll(async () => {
      ({
        entitlement: { id: entitlementId },
        code,
      } = await licensedEntitlement(tenant, offline()));
    });

    it.each(cases)("%s", async (_name, build, path) => {
      const artifact = build(code) as Record<string, Record<string, unknown>>;
      // Every case presents the real code, so only the shape can be what is refused.
      if (artifact.body?.activationCode === "CODE") artifact.body.activationCode = code;
      const res = await issue(artifact);
      expectProblem(res, 400, "license.validation_error");
      if (path) expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
      expect(await testDb().licenseSession.count({ where: { entitlementId } })).toBe(0);
      expect(await testDb().offlineActivation.count({ where: { entitlementId } })).toBe(0);
    });
  });

  it("refuses with 403 license.forbidden_by_policy when the license does not allow offline activation", async () => {
    for (const claims of [{ allowOfflineActivation: false }, {}]) {
      const { entitlement, code } = await licensedEntitlement(tenant, { claimBasedActivation: claims });
      expectProblem(
        await issue(offlineRequestArtifact(code, `fp-${randomUUID()}`)),
        403,
        "license.forbidden_by_policy",
      );
      expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(0);
    }
  });

  it("needs provision.offline.create: 401 without a token, 403 auth.insufficient_scope with another scope", async () => {
    const { code } = await licensedEntitlement(tenant, offline());
    const artifact = offlineRequestArtifact(code, `fp-${randomUUID()}`);
    expectProblem(await request("POST", ISSUE, { body: artifact }), 401, "auth.unauthenticated");
    expectProblem(
      await issue(artifact, await tenant.token("provision.device.*")),
      403,
      "auth.insufficient_scope",
    );
    expectProblem(
      await issue(artifact, await tenant.token("provision.offline.read")),
      403,
      "auth.insufficient_scope",
    );
    const wildcard = await issue(artifact, await tenant.token("provision.offline.*"));
    expect(wildcard.status, wildcard.text).toBe(200);
  });

  it("another tenant's activation code is 404 license.not_found (and an unknown code too)", async () => {
    const other = await createTestTenant("Offline other");
    const { entitlement, code } = await licensedEntitlement(other, offline());
    expectProblem(await issue(offlineRequestArtifact(code, `fp-${randomUUID()}`)), 404, "license.not_found");
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(0);
    expectProblem(await issue(offlineRequestArtifact("ZZZZ-ZZZZ-ZZZZ-ZZZZ", "fp")), 404, "license.not_found");
  });

  it("product end of life: a device that never activated is 403 license.product_end_of_life; the device that did is answered", async () => {
    const db = tenantDb(testDb(), tenant.tenantId);
    const ctx = systemContext(testDb(), tenant.tenantId, "test");
    const products = await Promise.all(
      ["Alpha", "Beta"].map((name) =>
        createProduct(
          ctx,
          ZProductCreateRequest.parse({
            name: `${name} ${randomUUID().slice(0, 6)}`,
            productCode: `P-${randomUUID().slice(0, 8)}`,
            productVersion: "1.0",
            status: "Active",
            expirationDate: new Date(Date.now() + 86_400_000).toISOString(),
          }),
        ),
      ),
    );
    const { entitlement, code } = await licensedEntitlement(tenant, {
      ...offline(),
      productIds: products.map((p) => p.id),
    });
    const known = `fp-${randomUUID()}`;
    const first = await issued(offlineRequestArtifact(code, known));
    expect(first.license.products.map((p: { id: string }) => p.id).sort()).toEqual(
      products.map((p) => p.id).sort(),
    );

    // The products reach their end of life: a date that only passes with time.
    await db.product.updateMany({
      where: { id: { in: products.map((p) => p.id) } },
      data: { expirationDate: new Date(Date.now() - 60_000) },
    });
    expectProblem(
      await issue(offlineRequestArtifact(code, `fp-${randomUUID()}`)),
      403,
      "license.product_end_of_life",
    );
    const again = await issued(
      offlineRequestArtifact(code, known, { requestedAt: new Date(Date.now() + 1000).toISOString() }),
    );
    expect(again.license.sessionId).toBe(first.license.sessionId);
    expect(await testDb().licenseSession.count({ where: { entitlementId: entitlement.id } })).toBe(1);
  });

  it("is idempotent on (code, fingerprint, requestedAt): the same request answers the identical bytes and one session", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, offline());
    const fingerprint = `fp-${randomUUID()}`;
    const artifact = offlineRequestArtifact(code, fingerprint, { requestedAt: "2026-03-01T12:00:00.000Z" });
    const first = await issued(artifact);
    const repeat = await issue(artifact);
    expect(repeat.status).toBe(200);
    expect(repeat.text).toBe(first.res.text);
    // The same instant in another offset, and the code in another spelling, are the same request.
    const respelled = await issue({
      ...artifact,
      meta: { ...artifact.meta, requestedAt: "2026-03-01T13:00:00+01:00" },
      body: { ...artifact.body, activationCode: code.toLowerCase() },
    });
    expect(respelled.text).toBe(first.res.text);
    expect(await testDb().offlineActivation.count({ where: { entitlementId: entitlement.id } })).toBe(1);

    // Another requestedAt is a new artifact, under the same device and session rules.
    const later = await issued(
      offlineRequestArtifact(code, fingerprint, { requestedAt: "2026-03-02T12:00:00.000Z" }),
    );
    expect(later.res.body.signedPayload).not.toBe(first.res.body.signedPayload);
    expect(later.license.sessionId).toBe(first.license.sessionId);
    expect(await sessionsOf(entitlement.id)).toHaveLength(1);
    expect(await devicesOf(entitlement.id)).toHaveLength(1);
    expect(await testDb().offlineActivation.count({ where: { entitlementId: entitlement.id } })).toBe(2);

    // Another device takes a second seat.
    const other = await issued(
      offlineRequestArtifact(code, `fp-${randomUUID()}`, { requestedAt: "2026-03-01T12:00:00.000Z" }),
    );
    expect(other.license.sessionId).not.toBe(first.license.sessionId);
    expect(await sessionsOf(entitlement.id)).toHaveLength(2);
  });

  it("ten concurrent identical requests make one session and identical answers", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, offline());
    const artifact = offlineRequestArtifact(code, `fp-${randomUUID()}`);
    const answers = await Promise.all(Array.from({ length: 10 }, () => issue(artifact)));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(await sessionsOf(entitlement.id)).toHaveLength(1);
    expect(await testDb().offlineActivation.count({ where: { entitlementId: entitlement.id } })).toBe(1);
  });

  it("a repeat after the session ended is 409 license.no_active_session; a new request artifact activates again", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant, offline());
    const fingerprint = `fp-${randomUUID()}`;
    const artifact = offlineRequestArtifact(code, fingerprint);
    const first = await issued(artifact);
    const reset = await request(
      "POST",
      `/api/v1/provision/operational/entitlements/${entitlement.id}/devices/reset`,
      { token: await tenant.token("provision.device.*") },
    );
    expect(reset.status, reset.text).toBe(200);
    expectProblem(await issue(artifact), 409, "license.no_active_session");
    const fresh = await issued(
      offlineRequestArtifact(code, fingerprint, { requestedAt: new Date(Date.now() + 1000).toISOString() }),
    );
    expect(fresh.license.sessionId).not.toBe(first.license.sessionId);
  });

  it("after a key rotation new artifacts name the new kid; a repeat still answers the first bytes, verifiable while the old key is published", async () => {
    const rotating = await createTestTenant("Offline rotation");
    const rotatingToken = await rotating.token("provision.offline.create");
    const { code } = await licensedEntitlement(rotating, offline());
    const fingerprint = `fp-${randomUUID()}`;
    const artifact = offlineRequestArtifact(code, fingerprint, { requestedAt: "2026-05-01T00:00:00.000Z" });
    const before = await request("POST", ISSUE, { token: rotatingToken, body: artifact });
    expect(before.status, before.text).toBe(200);

    const rotated = await rotateTenantSigningKey(testDb(), rotating.tenantId);
    const keys = (await request("GET", `/api/v1/provision/tenants/${rotating.tenantId}/jwks.json`)).body;
    const after = await request("POST", ISSUE, {
      token: rotatingToken,
      body: offlineRequestArtifact(code, fingerprint, { requestedAt: "2026-05-02T00:00:00.000Z" }),
    });
    expect(after.status, after.text).toBe(200);
    expect(after.body.kid).toBe(rotated.kid);
    expect(after.body.kid).not.toBe(before.body.kid);
    expect(verifyOfflineResponse(keys, after.body).verified).toBe(true);

    const repeat = await request("POST", ISSUE, { token: rotatingToken, body: artifact });
    expect(repeat.text).toBe(before.text);
    expect(verifyOfflineResponse(keys, repeat.body).verified).toBe(true);
  });

  it("the payload carries the license's state and the offline lease: Trial (no grace past its end), Grace (leased to the grace's end), open-ended (a year)", async () => {
    const day = 86_400_000;
    const trialEnd = new Date(Date.now() + 10 * day);
    const trial = await licensedEntitlement(tenant, {
      ...offline(),
      isEntitlementTrial: true,
      expirationDateTime: trialEnd,
    });
    const t = await issued(offlineRequestArtifact(trial.code, `fp-${randomUUID()}`));
    expect(t.license).toMatchObject({
      state: "Trial",
      leaseExpiresAt: trialEnd.toISOString(),
      graceExpiresAt: trialEnd.toISOString(),
    });

    const ended = new Date(Date.now() - 60_000);
    const grace = await licensedEntitlement(tenant, {
      ...offline({ gracePeriod: "P2D" }),
      expirationDateTime: ended,
    });
    const g = await issued(offlineRequestArtifact(grace.code, `fp-${randomUUID()}`));
    expect(g.license).toMatchObject({
      state: "Grace",
      leaseExpiresAt: new Date(ended.getTime() + 2 * day).toISOString(),
    });

    const open = await licensedEntitlement(tenant, offline());
    const o = await issued(offlineRequestArtifact(open.code, `fp-${randomUUID()}`));
    const lease = Date.parse(o.license.leaseExpiresAt) - Date.parse(o.license.issuedAt);
    expect(lease).toBeGreaterThan(364 * day);
    expect(lease).toBeLessThanOrEqual(365 * day);
    expect(o.license.expirationDateTime).toBeNull();
  });

  it("activation refusals pass through with their own codeName (no seat: 409 license.no_seat_available)", async () => {
    const { code } = await licensedEntitlement(tenant, offline({ numberOfSeats: 1 }));
    await issued(offlineRequestArtifact(code, `fp-${randomUUID()}`));
    expectProblem(
      await issue(offlineRequestArtifact(code, `fp-${randomUUID()}`)),
      409,
      "license.no_seat_available",
    );
  });

  describe("component matching: a changed fingerprint is the same device when the strategy admits the components", () => {
    const known = { MachineName: "h-machine", MacAddress: "h-mac", OsVersion: "h-os", UserName: "h-user" };
    /** The known components with the first `equal` kept and the rest changed. */
    const presenting = (equal: number) =>
      Object.fromEntries(Object.entries(known).map(([k, v], i) => [k, i < equal ? v : `${v}-changed`]));
    const cases: {
      name: string;
      strategy: string;
      first: Record<string, string> | null;
      second: Record<string, string> | null;
      sameFingerprint?: boolean;
      sameDevice: boolean;
    }[] = [
      {
        name: "MatchAll, no components, the same fingerprint → same device",
        strategy: "MatchAll",
        first: null,
        second: null,
        sameFingerprint: true,
        sameDevice: true,
      },
      {
        name: "MatchAll, no components, a changed fingerprint → new device",
        strategy: "MatchAll",
        first: null,
        second: null,
        sameDevice: false,
      },
      {
        name: "MatchAll, all 4 components equal, a changed fingerprint → new device",
        strategy: "MatchAll",
        first: known,
        second: presenting(4),
        sameDevice: false,
      },
      {
        name: "MatchAny, 1 of 4 equal → same device",
        strategy: "MatchAny",
        first: known,
        second: presenting(1),
        sameDevice: true,
      },
      {
        name: "MatchAny, 0 of 4 equal → new device",
        strategy: "MatchAny",
        first: known,
        second: presenting(0),
        sameDevice: false,
      },
      {
        name: "MatchAny, no components presented → new device",
        strategy: "MatchAny",
        first: known,
        second: null,
        sameDevice: false,
      },
      {
        name: "Two, 1 equal → new device",
        strategy: "Two",
        first: known,
        second: presenting(1),
        sameDevice: false,
      },
      {
        name: "Two, 2 equal → same device",
        strategy: "Two",
        first: known,
        second: presenting(2),
        sameDevice: true,
      },
      {
        name: "Most, 2 of 4 → new device",
        strategy: "Most",
        first: known,
        second: presenting(2),
        sameDevice: false,
      },
      {
        name: "Most, 3 of 4 → same device",
        strategy: "Most",
        first: known,
        second: presenting(3),
        sameDevice: true,
      },
    ];

    it.each(cases)("$name", async ({ strategy, first, second, sameFingerprint, sameDevice }) => {
      const { entitlement, code } = await licensedEntitlement(
        tenant,
        offline({ componentMatchingStrategy: strategy }),
      );
      const fingerprint = `fp-${randomUUID()}`;
      const a = await issued(
        offlineRequestArtifact(code, fingerprint, {
          components: first,
          requestedAt: "2026-04-01T08:00:00.000Z",
        }),
      );
      const b = await issued(
        offlineRequestArtifact(code, sameFingerprint ? fingerprint : `fp-${randomUUID()}`, {
          components: second,
          requestedAt: "2026-04-01T09:00:00.000Z",
        }),
      );
      expect(b.license.componentMatchingStrategy).toBe(strategy);
      const devices = await devicesOf(entitlement.id);
      const sessions = await sessionsOf(entitlement.id);
      if (sameDevice) {
        expect(b.license.sessionId).toBe(a.license.sessionId);
        expect(devices).toHaveLength(1);
        expect(sessions).toHaveLength(1);
      } else {
        expect(b.license.sessionId).not.toBe(a.license.sessionId);
        expect(devices).toHaveLength(2);
        expect(sessions.map((s) => s.deviceId)).toEqual(devices.map((d) => d.id));
      }
    });
  });
});
