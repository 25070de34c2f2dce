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
    /** This sign-in's id and time (ms): sessions signed in before a "sign out of other sessions" end. */
    sessionId: string;
    signedInAt: number;
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
    sessionId?: string;
    signedInAt?: number;
  }
}
