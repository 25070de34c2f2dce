import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { trpcMutation, uiSignIn } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createUser } from "../../../server/domain/identity/users.ts";

/**
 * Issue 21 item 3: `support` and `catalog-editor` could register API clients with every read
 * scope, including `provision.activation-code.read` (plaintext codes) and customer data. The
 * roles × client-scopes matrix of docs/security.md ("Round 3"), written out here as data (not
 * computed by the code under test), is compared with what the server does: each role tries to
 * register a client with each scope family over HTTP (tRPC `clients.create`).
 */

type Role = "owner" | "admin" | "catalog-editor" | "support" | "read-only";
const ROLES: Role[] = ["owner", "admin", "catalog-editor", "support", "read-only"];
const ALL: Role[] = ["owner", "admin"];

/** Scope pattern → the roles that may register a client holding it (docs/security.md "Round 3"). */
const MATRIX: Record<string, Role[]> = {
  "provision.product.*": [...ALL, "catalog-editor"],
  "provision.feature-catalog.*": [...ALL, "catalog-editor"],
  "provision.tag.*": [...ALL, "catalog-editor"],
  "provision.suite.*": [...ALL, "catalog-editor"],
  "provision.plan-set.*": [...ALL, "catalog-editor"],
  "provision.add-on.*": [...ALL, "catalog-editor"],
  "provision.rating-campaign.*": [...ALL, "catalog-editor"],
  "provision.monitored-asset.*": [...ALL, "catalog-editor"],
  "provision.catalog.*": [...ALL, "catalog-editor"],
  "provision.device.*": [...ALL, "support"],
  "provision.session.*": [...ALL, "support"],
  "provision.entitlement-adm.read": ALL,
  "provision.entitlement-adm.*": ALL,
  "provision.activation-code.read": ALL,
  "provision.activation-code.*": ALL,
  "provision.balance.read": ALL,
  "provision.balance.*": ALL,
  "provision.usage.read": ALL,
  "provision.usage.*": ALL,
  "provision.offline.read": ALL,
  "provision.offline.*": ALL,
  "provision.customer.read": ALL,
  "provision.customer.*": ALL,
  "provision.webhook.read": ALL,
  "provision.webhook.*": ALL,
  "provision.report.read": ALL,
  "provision.audit.read": ALL,
  "provision.*.read": ALL,
  "provision.*": ALL,
  "webhooks.integrator": ALL,
};

const password = "Client-matrix-pass-1";
let tenant: TestTenant;
const cookies = {} as Record<Role, string>;

beforeAll(async () => {
  tenant = await createTestTenant("Client scopes matrix");
  for (const role of ROLES) {
    const email = `${role}-${randomUUID().slice(0, 8)}@matrix.example.com`;
    await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
      email,
      password,
      kind: "staff",
      staffRole: role,
    });
    cookies[role] = (await uiSignIn("staff", { email, password, tenant: tenant.tenantSlug })).cookie;
  }
});

// Many requests per test: a loaded machine outruns the default 30 s.
describe(
  "lower roles mint lasting credentials: the roles × client-scopes matrix",
  { timeout: 180_000 },
  () => {
    it("each role registers a client with exactly the scopes the matrix gives it; every other scope is 403 staff.scope_beyond_role (read-only: staff.permission_denied)", async () => {
      const seen: string[] = [];
      const expected: string[] = [];
      for (const [scope, allowed] of Object.entries(MATRIX))
        for (const role of ROLES) {
          const kind = scope === "webhooks.integrator" ? "integrator" : "admin";
          const res = await trpcMutation<{ client: { scopes: string[]; createdByUserId: string | null } }>(
            "clients.create",
            { name: `${role} ${scope}`, kind, scopes: [scope] },
            cookies[role],
          );
          const outcome =
            res.status === 200
              ? "allowed"
              : (res.error?.data?.problem?.codeName ?? `${res.status} ${res.error?.message}`);
          seen.push(`${role} ${scope} ${outcome}`);
          expected.push(
            `${role} ${scope} ${
              allowed.includes(role)
                ? "allowed"
                : role === "read-only"
                  ? "staff.permission_denied"
                  : "staff.scope_beyond_role"
            }`,
          );
          if (res.status === 200) expect(res.data!.client.createdByUserId).toEqual(expect.any(String));
        }
      expect(seen).toEqual(expected);
    });

    it("the scopes named in the issue: support and catalog editors cannot register activation-code or customer reads", async () => {
      for (const role of ["support", "catalog-editor"] as const)
        for (const scope of [
          "provision.activation-code.read",
          "provision.customer.read",
          "provision.*.read",
        ]) {
          const res = await trpcMutation(
            "clients.create",
            { name: "reader", scopes: [scope] },
            cookies[role],
          );
          expect(res.status, `${role} ${scope}`).toBe(403);
          expect(res.error?.data?.problem?.codeName).toBe("staff.scope_beyond_role");
        }
    });
  },
);
