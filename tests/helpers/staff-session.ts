import { systemContext } from "../../server/domain/context.ts";
import { createUser } from "../../server/domain/identity/users.ts";
import type { StaffRole } from "../../server/domain/identity/staff-roles/staff-roles.ts";
import { testDb, type TestTenant } from "./api.ts";
import { uiSignIn } from "./ui-session.ts";

/** A new staff user of the tenant with this role, signed in to the back office: its Cookie header. */
export async function staffCookie(t: TestTenant, role: StaffRole, email: string, password: string) {
  await createUser(systemContext(testDb(), t.tenantId, "test"), {
    email,
    password,
    kind: "staff",
    staffRole: role,
  });
  return (await uiSignIn("staff", { email, password, tenant: t.tenantSlug })).cookie;
}
