import { systemContext } from "../../../server/domain/context.ts";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createTestTenant,
  expectProblem,
  request,
  testDb,
  tokenRequest,
  type TestTenant,
} from "../../helpers/api.ts";
import { createClient, revokeClient } from "../../../server/domain/identity/oauth-clients.ts";

describe("POST /auth/connect/token", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Token");
  });

  const creds = () => ({
    grant_type: "client_credentials",
    client_id: tenant.clientId,
    client_secret: tenant.clientSecret,
  });

  it("issues a bearer token with the requested scopes capped to the registered ones", async () => {
    const res = await tokenRequest({ ...creds(), scope: "provision.tag.read provision.product.*" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({
      token_type: "Bearer",
      expires_in: 900,
      access_token: expect.any(String),
    });
    expect(res.body.scope.split(" ").sort()).toEqual(
      [
        "provision.tag.read",
        "provision.product.read",
        "provision.product.create",
        "provision.product.update",
        "provision.product.delete",
      ].sort(),
    );
  });

  it("accepts client credentials in an HTTP Basic header", async () => {
    const basic = Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString("base64");
    const res = await tokenRequest(
      { grant_type: "client_credentials", scope: "provision.tag.read" },
      { authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe("provision.tag.read");
  });

  it("caps a requested wildcard to the client's registered scopes", async () => {
    const { client, clientSecret } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
      name: "narrow",
      scopes: ["provision.tag.read", "provision.product.*"],
    });
    const res = await tokenRequest({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: clientSecret,
      scope: "provision.*",
    });
    expect(res.status).toBe(200);
    expect(res.body.scope.split(" ")).toContain("provision.tag.read");
    expect(res.body.scope.split(" ")).not.toContain("provision.tag.create");
    expect(res.body.scope.split(" ")).toContain("provision.product.delete");
    expect(res.body.scope.split(" ")).not.toContain("webhooks.integrator");
  });

  it("invalid_client (401) for an unknown client, a wrong secret and a revoked client", async () => {
    for (const form of [
      { ...creds(), client_id: "ci_unknown" },
      { ...creds(), client_secret: "cs_wrong" },
    ]) {
      const res = await tokenRequest(form);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "invalid_client" });
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
    }
    const { client, clientSecret } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
      name: "to revoke",
      scopes: ["provision.tag.read"],
    });
    await revokeClient(systemContext(testDb(), tenant.tenantId, "test"), client.id);
    const res = await tokenRequest({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: clientSecret,
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_client");
  });

  it("invalid_scope (400) for an unknown scope and for scopes none of which is registered", async () => {
    const unknown = await tokenRequest({ ...creds(), scope: "provision.nothing.read" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("invalid_scope");
    const unregistered = await tokenRequest({ ...creds(), scope: "webhooks.integrator" });
    expect(unregistered.status).toBe(400);
    expect(unregistered.body.error).toBe("invalid_scope");
  });

  it("unsupported_grant_type (400)", async () => {
    const res = await tokenRequest({ ...creds(), grant_type: "authorization_code" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("unsupported_grant_type");
  });

  it("invalid_request (400) without grant_type, without credentials, or with a JSON body", async () => {
    expect((await tokenRequest({ client_id: tenant.clientId })).body.error).toBe("invalid_request");
    expect((await tokenRequest({ grant_type: "client_credentials" })).body.error).toBe("invalid_request");
    const json = await request("POST", "/auth/connect/token", { body: creds() });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe("invalid_request");
  });

  it("a token requested without scope is refused by admin routes (403)", async () => {
    const res = await tokenRequest(creds());
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe("");
    expectProblem(
      await request("GET", "/api/v1/provision/admin/tags", { token: res.body.access_token }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("issues a consumer token through the password grant, refused by admin routes (401)", async () => {
    const { createUser } = await import("../../../server/domain/identity/users.ts");
    await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
      email: "enduser@example.com",
      password: "correct horse battery",
      kind: "consumer",
    });
    const bad = await tokenRequest({
      grant_type: "password",
      username: "enduser@example.com",
      password: "wrong password",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_grant");
    const ok = await tokenRequest({
      grant_type: "password",
      username: "enduser@example.com",
      password: "correct horse battery",
    });
    expect(ok.status).toBe(200);
    expectProblem(
      await request("GET", "/api/v1/provision/admin/tags", { token: ok.body.access_token }),
      401,
      "auth.unauthenticated",
    );
  });
});

describe("access tokens on admin routes", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Auth");
  });

  it("401 without a token, with a malformed header, a garbage token and a revoked client's token", async () => {
    expectProblem(await request("GET", "/api/v1/provision/admin/tags"), 401, "auth.unauthenticated");
    const malformed = await request("GET", "/api/v1/provision/admin/tags", {
      headers: { authorization: "Token abc" },
    });
    expectProblem(malformed, 401, "auth.unauthenticated");
    const garbage = await request("GET", "/api/v1/provision/admin/tags", { token: "not.a.jwt" });
    expectProblem(garbage, 401, "auth.unauthenticated");
    expect(garbage.headers.get("www-authenticate")).toContain('error="invalid_token"');

    const { client, clientSecret } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
      name: "short-lived",
      scopes: ["provision.tag.*"],
    });
    const token = (
      await tokenRequest({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: clientSecret,
        scope: "provision.tag.*",
      })
    ).body.access_token;
    expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(200);
    await revokeClient(systemContext(testDb(), tenant.tenantId, "test"), client.clientId);
    expectProblem(
      await request("GET", "/api/v1/provision/admin/tags", { token }),
      401,
      "auth.unauthenticated",
    );
  });

  it("a token signed by another key is refused (401)", async () => {
    const { SignJWT, generateKeyPair } = await import("jose");
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const forged = await new SignJWT({ tid: tenant.tenantId, scope: "provision.*", cid: "x", kind: "admin" })
      .setProtectedHeader({ alg: "EdDSA", kid: "pk_forged" })
      .setIssuer("urn:licensing:platform")
      .setAudience("provision")
      .setSubject("ci_x")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    expectProblem(
      await request("GET", "/api/v1/provision/admin/tags", { token: forged }),
      401,
      "auth.unauthenticated",
    );
  });

  it("checks scopes per verb: read allows GET only", async () => {
    const token = await tenant.token("provision.tag.read");
    expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(200);
    const post = await request("POST", "/api/v1/provision/admin/tags", {
      token,
      body: { scope: "Product", name: "x" },
    });
    expectProblem(post, 403, "auth.insufficient_scope");
    expect(post.body.detail).toContain("provision.tag.create");
  });

  it("a toggle POST .../{id}/merge needs update, not create", async () => {
    const admin = await tenant.token("provision.tag.*");
    const a = (
      await request("POST", "/api/v1/provision/admin/tags", {
        token: admin,
        body: { scope: "Product", name: "toggle-a" },
      })
    ).body;
    const b = (
      await request("POST", "/api/v1/provision/admin/tags", {
        token: admin,
        body: { scope: "Product", name: "toggle-b" },
      })
    ).body;
    const createOnly = await tenant.token("provision.tag.create provision.tag.read");
    expectProblem(
      await request("POST", `/api/v1/provision/admin/tags/${a.id}/merge`, {
        token: createOnly,
        body: { intoTagId: b.id },
      }),
      403,
      "auth.insufficient_scope",
    );
    const updateOnly = await tenant.token("provision.tag.update");
    expect(
      (
        await request("POST", `/api/v1/provision/admin/tags/${a.id}/merge`, {
          token: updateOnly,
          body: { intoTagId: b.id },
        })
      ).status,
    ).toBe(200);
  });

  it("wildcards: provision.* and provision.tag.* reach tags; another resource's scope does not", async () => {
    expect(
      (await request("GET", "/api/v1/provision/admin/tags", { token: await tenant.token("provision.*") }))
        .status,
    ).toBe(200);
    expect(
      (
        await request("DELETE", `/api/v1/provision/admin/tags/${crypto.randomUUID()}`, {
          token: await tenant.token("provision.tag.*"),
        })
      ).status,
    ).toBe(404);
    expectProblem(
      await request("GET", "/api/v1/provision/admin/tags", {
        token: await tenant.token("provision.product.*"),
      }),
      403,
      "auth.insufficient_scope",
    );
  });

  it("provision.*.read matches read of every resource", async () => {
    const token = await tenant.token("provision.*.read");
    expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(200);
    expectProblem(
      await request("POST", "/api/v1/provision/admin/tags", {
        token,
        body: { scope: "Product", name: "nope" },
      }),
      403,
      "auth.insufficient_scope",
    );
  });
});

describe("GET /api/v1/scopes", () => {
  it("publishes the scope catalog without authentication", async () => {
    const res = await request("GET", "/api/v1/scopes");
    expect(res.status).toBe(200);
    const scopes = res.body.scopes.map((s: { scope: string }) => s.scope);
    expect(scopes).toContain("provision.tag.read");
    expect(scopes).toContain("provision.entitlement-adm.update");
    expect(scopes).toContain("webhooks.integrator");
  });
});
