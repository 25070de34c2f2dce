import type { UserKind } from "../domain/identity/users.ts";
import type { StaffRole } from "../domain/identity/staff-roles/staff-roles.ts";

/** What a signed-in UI session carries (server/auth/options.ts puts it there). */
declare module "next-auth" {
  interface Session {
    userId: string;
    tenantId: string;
    tenantName: string;
    tenantSlug: string;
    kind: UserKind;
    email: string;
    name: string;
    roles: string[];
    /**
     * Staff: the role as the database holds it at this request (currentSession reads it fresh, so a
     * role change applies at the next request); null for consumers.
     */
    staffRole: StaffRole | null;
  }
  interface User {
    tenantId: string;
    tenantName: string;
    tenantSlug: string;
    kind: UserKind;
    roles: string[];
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    tenantId?: string;
    tenantName?: string;
    tenantSlug?: string;
    kind?: UserKind;
    roles?: string[];
  }
}
