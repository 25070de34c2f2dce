import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { trpcMutation, trpcQuery, uiSignIn } from "../../helpers/ui-session.ts";
import { repoRoot } from "../../helpers/test-server.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createUser } from "../../../server/domain/identity/users.ts";
import { appRouter } from "../../../server/trpc/root.ts";
import { permissionOf, type ProcedureMeta } from "../../../server/trpc/init.ts";
import {
  permissionFamilies,
  staffRoles,
  type StaffPermission,
  type StaffRole,
} from "../../../server/domain/identity/staff-roles/staff-roles.ts";

/**
 * One procedure of each permission family and access (docs/security.md "Staff roles"); the
 * structural test below checks each declares that permission. The matrix of which role may call
 * them is tests/int/identity/roles-matrix.int.test.ts.
 */
type Representative = { path: string; kind: "query" | "mutation" } | null;
const representatives: Record<StaffPermission, Representative> = {
  "catalog.read": { path: "tags.list", kind: "query" },
  "catalog.write": { path: "tags.delete", kind: "mutation" },
  "entitlements.read": { path: "entitlements.get", kind: "query" },
  "entitlements.write": { path: "entitlements.archive", kind: "mutation" },
  "customers.read": { path: "customers.users", kind: "query" },
  "customers.write": { path: "customers.deleteUser", kind: "mutation" },
  "devices.read": { path: "licensing.listDevices", kind: "query" },
  "devices.write": { path: "licensing.unblockDevice", kind: "mutation" },
  "sessions.read": { path: "sessions.list", kind: "query" },
  "sessions.write": { path: "sessions.release", kind: "mutation" },
  "offline.read": null,
  "offline.write": { path: "offlineActivations.issue", kind: "mutation" },
  "metering.read": { path: "meters.list", kind: "query" },
  "metering.write": { path: "balances.deposit", kind: "mutation" },
  "webhooks.read": { path: "webhooks.list", kind: "query" },
  "webhooks.write": { path: "webhooks.delete", kind: "mutation" },
  "reports.read": { path: "reports.revenue", kind: "query" },
  "reports.write": null,
  "clients.read": { path: "clients.list", kind: "query" },
  "clients.write": { path: "clients.revoke", kind: "mutation" },
  "users.read": { path: "staffUsers.list", kind: "query" },
  "users.write": { path: "staffUsers.disable", kind: "mutation" },
  "audit.read": { path: "audit.list", kind: "query" },
  "audit.write": null,
};

type AnyProcedure = { _def: { type: string; meta?: ProcedureMeta } };
const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def.procedures,
);

/** The permission each staff procedure declares, by path (consumer and `me` procedures have none). */
function declaredPermissions(): Map<string, StaffPermission> {
  const out = new Map<string, StaffPermission>();
  for (const [path, procedure] of procedures) {
    const permission = permissionOf(procedure._def.meta, procedure._def.type);
    if (permission) out.set(path, permission);
  }
  return out;
}

let tenant: TestTenant;
const password = "Role-matrix-pass-1";
const cookies = {} as Record<StaffRole, string>;
const emails = {} as Record<StaffRole, string>;

async function staffUser(role: StaffRole, email: string) {
  await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
    email,
    password,
    kind: "staff",
    staffRole: role,
  });
  return (await uiSignIn("staff", { email, password, tenant: tenant.tenantSlug })).cookie;
}

beforeAll(async () => {
  tenant = await createTestTenant("Roles");
  for (const role of staffRoles) {
    emails[role] = `${role}@roles.example.com`;
    cookies[role] = await staffUser(role, emails[role]);
  }
});

describe("staff roles", () => {
  it("every staff procedure declares a permission family, and the matrix names one procedure per family and access that exists", () => {
    const declared = declaredPermissions();
    const staffPaths = procedures
      .filter(
        ([path]) =>
          !path.startsWith("me.") &&
          // Portal procedures (the signed-in customer's own) belong to no family.
          !/\.(my[A-Z]|mine$|grantMine$|releaseMySession$)/.test(path),
      )
      .map(([path]) => path);
    expect(staffPaths.filter((path) => !declared.has(path))).toEqual([]);
    const present = new Set(declared.values());
    for (const family of permissionFamilies)
      for (const access of ["read", "write"] as const) {
        const permission: StaffPermission = `${family}.${access}`;
        const rep = representatives[permission];
        if (rep) expect(declared.get(rep.path), rep.path).toBe(permission);
        else expect(present.has(permission), permission).toBe(false);
      }
  });

  // The roles matrix itself (each role × each family, allowed or refused) is written out as data
  // in tests/int/identity/roles-matrix.int.test.ts, never asked of the role catalog.

  it("the API-client screen: a user cannot mint or revoke a client with scopes beyond their role", async () => {
    const editor = cookies["catalog-editor"];
    const ok = await trpcMutation<{ client: { id: string } }>(
      "clients.create",
      { name: "catalog bot", scopes: ["provision.product.*", "provision.tag.read"] },
      editor,
    );
    expect(ok.status, ok.error?.message).toBe(200);
    const beyond = await trpcMutation(
      "clients.create",
      { name: "too strong", scopes: ["provision.entitlement-adm.*"] },
      editor,
    );
    expect(beyond.status).toBe(403);
    expect(beyond.error?.data?.problem?.codeName).toBe("staff.scope_beyond_role");
    const wildcard = await trpcMutation("clients.create", { name: "all", scopes: ["provision.*"] }, editor);
    expect(wildcard.error?.data?.problem?.codeName).toBe("staff.scope_beyond_role");
    // The tenant's all-scopes admin client is beyond the editor: it cannot revoke it.
    const revoke = await trpcMutation("clients.revoke", { id: tenant.clientId }, editor);
    expect(revoke.error?.data?.problem?.codeName).toBe("staff.scope_beyond_role");
    const readOnly = await trpcMutation(
      "clients.create",
      { name: "reader", scopes: ["provision.product.read"] },
      cookies["read-only"],
    );
    expect(readOnly.status).toBe(403);
  });

  it("a role change applies at the user's next request, and a disabled user's session ends at their next request", async () => {
    const cookie = await staffUser("catalog-editor", "mover@roles.example.com");
    const { data: page } = await trpcQuery<{ items: { id: string; email: string }[] }>(
      "staffUsers.list",
      { filter: "email==mover@roles.example.com", pageNumber: 1, pageSize: 10 },
      cookies.owner,
    );
    const userId = page!.items[0].id;
    expect((await trpcMutation("tags.delete", { id: "x" }, cookie)).status).toBe(400);

    const changed = await trpcMutation(
      "staffUsers.changeRole",
      { userId, staffRole: "read-only" },
      cookies.admin,
    );
    expect(changed.status, changed.error?.message).toBe(200);
    const refused = await trpcMutation("tags.delete", { id: "x" }, cookie);
    expect(refused.status).toBe(403);
    expect(refused.error?.data?.problem?.codeName).toBe("staff.permission_denied");
    expect((await trpcQuery("me.get", undefined, cookie)).data).toMatchObject({ staffRole: "read-only" });

    expect((await trpcMutation("staffUsers.disable", { userId }, cookies.admin)).status).toBe(200);
    const after = await trpcQuery("tags.list", {}, cookie);
    expect(after.status).toBe(401);
    await expect(
      uiSignIn("staff", { email: "mover@roles.example.com", password, tenant: tenant.tenantSlug }),
    ).rejects.toThrow();
  });

  it("only an owner grants, changes or disables an owner; the last active owner stays", async () => {
    const { data: owners } = await trpcQuery<{ items: { id: string; email: string }[] }>(
      "staffUsers.list",
      { filter: "staffRole==owner", pageNumber: 1, pageSize: 10 },
      cookies.owner,
    );
    const ownerId = owners!.items.find((u) => u.email === emails.owner)!.id;
    const adminToOwner = await trpcMutation(
      "staffUsers.invite",
      { email: "new-owner@roles.example.com", staffRole: "owner" },
      cookies.admin,
    );
    expect(adminToOwner.error?.data?.problem?.codeName).toBe("staff.permission_denied");
    const adminDemotes = await trpcMutation(
      "staffUsers.changeRole",
      { userId: ownerId, staffRole: "admin" },
      cookies.admin,
    );
    expect(adminDemotes.error?.data?.problem?.codeName).toBe("staff.permission_denied");

    // Two owners (the tenant's first user and ours): demote the first, then ours is the last.
    const first = owners!.items.find((u) => u.email !== emails.owner)!;
    expect(
      (await trpcMutation("staffUsers.changeRole", { userId: first.id, staffRole: "admin" }, cookies.owner))
        .status,
    ).toBe(200);
    const last = await trpcMutation("staffUsers.disable", { userId: ownerId }, cookies.owner);
    expect(last.status).toBe(403); // yourself
    const lastDemote = await trpcMutation(
      "staffUsers.changeRole",
      { userId: ownerId, staffRole: "admin" },
      cookies.owner,
    );
    expect(lastDemote.status).toBe(409);
    expect(lastDemote.error?.data?.problem?.codeName).toBe("staff.last_owner");

    const invited = await trpcMutation<{ user: { email: string; staffRole: string }; password: string }>(
      "staffUsers.invite",
      { email: "support2@roles.example.com", staffRole: "support" },
      cookies.admin,
    );
    expect(invited.data?.user.staffRole).toBe("support");
    const signedIn = await uiSignIn("staff", {
      email: "support2@roles.example.com",
      password: invited.data!.password,
      tenant: tenant.tenantSlug,
    });
    expect((await trpcQuery("me.get", undefined, signedIn.cookie)).data).toMatchObject({
      staffRole: "support",
    });
  });

  it("the CLI lists staff users and changes a role (npm run cli -- user set-role), audited as the CLI", async () => {
    const env = { ...process.env, DATABASE_URL: inject("databaseUrl") };
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [`${repoRoot}/scripts/production.mjs`, "cli", ...args], {
        cwd: repoRoot,
        env,
        encoding: "utf8",
        timeout: 120_000,
      });
    const set = cli(
      "user",
      "set-role",
      "--tenant",
      tenant.tenantId,
      "--email",
      emails.support,
      "--role",
      "read-only",
      "--json",
    );
    expect(set.status, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ email: emails.support, staffRole: "read-only" });
    const list = cli("user", "list", "--tenant", tenant.tenantId, "--json");
    expect(JSON.parse(list.stdout).find((u: { email: string }) => u.email === emails.support).staffRole).toBe(
      "read-only",
    );
    const row = await testDb().auditEvent.findFirst({
      where: { tenantId: tenant.tenantId, source: "cli", operation: "user set-role" },
    });
    expect(row).toMatchObject({
      actorKind: "system",
      action: "user.updated",
      changes: { staffRole: { from: "support", to: "read-only" } },
    });
  }, 300_000);
});
