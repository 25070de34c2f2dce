import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { trpcMutation, trpcQuery, uiSignIn } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createUser } from "../../../server/domain/identity/users.ts";

/**
 * The roles matrix of docs/security.md "Staff roles", written out here as data: for each
 * permission family, what each role may do ("r" read, "w" write, "rw" both, "-" neither). It is
 * compared with what the server answers a signed-in staff user of each role over tRPC, never with
 * the role catalog's own function (a test that asked the catalog what to expect let the read-only
 * role gain `webhooks.write` unnoticed).
 */
const ROLES = ["owner", "admin", "catalog-editor", "support", "read-only"] as const;
type Role = (typeof ROLES)[number];
type Access = "rw" | "r" | "w" | "-";

//                     owner  admin  catalog-editor  support  read-only
const MATRIX: Record<string, [Access, Access, Access, Access, Access]> = {
  catalog: ["rw", "rw", "rw", "r", "r"],
  entitlements: ["rw", "rw", "r", "r", "r"],
  customers: ["rw", "rw", "r", "r", "r"],
  devices: ["rw", "rw", "r", "rw", "r"],
  sessions: ["r", "r", "r", "r", "r"],
  offline: ["w", "w", "-", "w", "-"],
  metering: ["rw", "rw", "r", "r", "r"],
  webhooks: ["rw", "rw", "r", "r", "r"],
  reports: ["r", "r", "r", "r", "r"],
  clients: ["rw", "rw", "rw", "rw", "r"],
  users: ["rw", "rw", "-", "-", "r"],
  audit: ["r", "r", "-", "-", "r"],
};

/**
 * One procedure per family and access (a family without a procedure of that access has none
 * here: sessions and reports are read, offline activation is a write). Inputs are invalid on
 * purpose: the role is checked before the input, so an allowed call answers 200 or 400 and a
 * refused one 403, and nothing changes either way.
 */
const PROCEDURES: Record<string, { read?: string; write?: string }> = {
  catalog: { read: "tags.list", write: "tags.delete" },
  entitlements: { read: "entitlements.get", write: "entitlements.archive" },
  customers: { read: "customers.users", write: "customers.deleteUser" },
  devices: { read: "licensing.listDevices", write: "licensing.unblockDevice" },
  sessions: { read: "sessions.list" },
  offline: { write: "offlineActivations.issue" },
  metering: { read: "meters.list", write: "balances.deposit" },
  webhooks: { read: "webhooks.list", write: "webhooks.delete" },
  reports: { read: "reports.revenue" },
  clients: { read: "clients.list", write: "clients.revoke" },
  users: { read: "staffUsers.list", write: "staffUsers.disable" },
  audit: { read: "audit.list" },
};

describe("roles matrix: each role × each permission family, as docs/security.md writes it", () => {
  let tenant: TestTenant;
  const cookies = {} as Record<Role, string>;

  beforeAll(async () => {
    tenant = await createTestTenant("Roles matrix");
    const password = "Roles-matrix-pass-1";
    for (const role of ROLES) {
      const email = `${role}@roles-matrix.example.com`;
      await createUser(systemContext(testDb(), tenant.tenantId, "test"), {
        email,
        password,
        kind: "staff",
        staffRole: role,
      });
      cookies[role] = (await uiSignIn("staff", { email, password, tenant: tenant.tenantSlug })).cookie;
    }
  });

  it("the server allows exactly what the table allows, and refuses the rest with 403 staff.permission_denied", async () => {
    const expected: string[] = [];
    const answered: string[] = [];
    for (const [family, row] of Object.entries(MATRIX))
      for (const [i, role] of ROLES.entries())
        for (const access of ["read", "write"] as const) {
          const path = PROCEDURES[family][access];
          if (!path) continue;
          const allowed = row[i].includes(access[0]);
          expected.push(`${role} ${family}.${access} ${allowed ? "allowed" : "refused"}`);
          const res =
            access === "read"
              ? await trpcQuery(path, { matrix: true }, cookies[role])
              : await trpcMutation(path, { matrix: true }, cookies[role]);
          const problem = (res.error?.data as { problem?: { codeName?: string } } | undefined)?.problem;
          // An allowed call answers 200, or 400 for the invalid input; anything else is a bug.
          const outcome =
            res.status === 403 && problem?.codeName === "staff.permission_denied"
              ? "refused"
              : res.status === 200 || res.status === 400
                ? "allowed"
                : `answered ${res.status} ${res.error?.message}`;
          answered.push(`${role} ${family}.${access} ${outcome}`);
        }
    expect(answered).toEqual(expected);
    // 5 roles × 20 procedures.
    expect(answered).toHaveLength(100);
    // A hundred calls one after another: on a shared 2-core machine more than the suite's 30 s.
  }, 120_000);
});
