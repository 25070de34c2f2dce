import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestTenant, request, testDb, tokenRequest, type TestTenant } from "../../helpers/api.ts";
import { trpcMutation, trpcQuery, uiSignIn } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createUser } from "../../../server/domain/identity/users.ts";

/**
 * Issue 21 item 3: a client registered by a staff user had no creator, so disabling that user
 * left its secret working. The client records its creator; disabling the creator revokes their
 * clients, and demoting them revokes those the new role may not register (docs/security.md
 * "Round 3").
 */

const password = "Client-creator-pass-1";

async function staff(tenant: TestTenant, role: string) {
  const email = `${role}-${randomUUID().slice(0, 8)}@creator.example.com`;
  const user = await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
    email,
    password,
    kind: "staff",
    staffRole: role as "admin",
  });
  const cookie = (await uiSignIn("staff", { email, password, tenant: tenant.tenantSlug })).cookie;
  return { id: user.id, cookie };
}

async function register(cookie: string, scopes: string[]) {
  const res = await trpcMutation<{
    client: { id: string; clientId: string; createdByUserId: string };
    clientSecret: string;
  }>("clients.create", { name: `client ${randomUUID().slice(0, 6)}`, scopes }, cookie);
  expect(res.status, res.error?.message).toBe(200);
  return res.data!;
}

const grant = (c: { client: { clientId: string }; clientSecret: string }, scope: string) =>
  tokenRequest({
    grant_type: "client_credentials",
    client_id: c.client.clientId,
    client_secret: c.clientSecret,
    scope,
  });

// Many requests per test: a loaded machine outruns the default 30 s.
describe("API clients follow their creator", { timeout: 180_000 }, () => {
  it("disabling the staff user who registered a client revokes it: its secret and its tokens stop working", async () => {
    const tenant = await createTestTenant("Client creator disable");
    const owner = await staff(tenant, "owner");
    const admin = await staff(tenant, "admin");
    const client = await register(admin.cookie, ["provision.tag.read"]);
    expect(client.client.createdByUserId).toBe(admin.id);
    const before = await grant(client, "provision.tag.read");
    expect(before.status, before.text).toBe(200);
    const token = before.body.access_token;
    expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(200);

    const disabled = await trpcMutation("staffUsers.disable", { userId: admin.id }, owner.cookie);
    expect(disabled.status, disabled.error?.message).toBe(200);
    expect((await grant(client, "provision.tag.read")).status).toBe(401);
    expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(401);
    const listed = await trpcQuery<{ id: string; revokedAt: string | null }[]>(
      "clients.list",
      undefined,
      owner.cookie,
    );
    expect(listed.data!.find((c) => c.id === client.client.id)!.revokedAt).toEqual(expect.any(String));
  });

  it("demoting the creator revokes the clients beyond the new role and keeps the others", async () => {
    const tenant = await createTestTenant("Client creator demote");
    const owner = await staff(tenant, "owner");
    const admin = await staff(tenant, "admin");
    const strong = await register(admin.cookie, ["provision.activation-code.read"]);
    const catalog = await register(admin.cookie, ["provision.product.*"]);
    const demoted = await trpcMutation(
      "staffUsers.changeRole",
      { userId: admin.id, staffRole: "catalog-editor" },
      owner.cookie,
    );
    expect(demoted.status, demoted.error?.message).toBe(200);
    expect((await grant(strong, "provision.activation-code.read")).status).toBe(401);
    expect((await grant(catalog, "provision.product.read")).status).toBe(200);
  });

  it("clients registered by the CLI (no creator) are not touched by a staff user's disable", async () => {
    const tenant = await createTestTenant("Client creator none");
    const owner = await staff(tenant, "owner");
    const admin = await staff(tenant, "admin");
    const token = await tenant.token(["provision.tag.read"]);
    await trpcMutation("staffUsers.disable", { userId: admin.id }, owner.cookie);
    expect((await request("GET", "/api/v1/provision/admin/tags", { token })).status).toBe(200);
  });
});
