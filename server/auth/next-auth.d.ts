import type { UserKind } from "../domain/identity/users.ts";

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
