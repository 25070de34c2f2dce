/**
 * The back-office staff roles: a core concept every area may name (the actor of a domain call
 * carries one, context.ts). What each role may do is in identity/staff-roles/staff-roles.ts.
 */
export const staffRoles = ["owner", "admin", "catalog-editor", "support", "read-only"] as const;
export type StaffRole = (typeof staffRoles)[number];
