import { INTEGRATOR_SCOPE, expandScope, scopeCatalog } from "../scopes.ts";
import { AppError } from "../../../core/errors.ts";
import { staffRoles, type StaffRole } from "../../staff-role.ts";

/**
 * The staff role catalog (the matrix is in docs/security.md "Staff roles").
 * Every back-office procedure belongs to one family and is a read (a query) or a write (a
 * mutation); a role holds a set of `<family>.<access>` permissions. The tRPC staff procedure
 * builder enforces them in one place (server/trpc/init.ts).
 */
export { staffRoles, type StaffRole };

export const staffRoleLabels: Record<StaffRole, string> = {
  owner: "Owner",
  admin: "Admin",
  "catalog-editor": "Catalog editor",
  support: "Support",
  "read-only": "Read-only",
};

export const staffRoleDescriptions: Record<StaffRole, string> = {
  owner: "Everything, including managing owners.",
  admin: "Everything except owners: cannot grant, change or disable an owner.",
  "catalog-editor": "Edits the catalog and pricing; reads licenses and customers.",
  support: "Resets and blocks devices, handles sessions and offline activation; reads the rest.",
  "read-only": "Reads everything a support user reads, and the audit trail; changes nothing.",
};

export const permissionFamilies = [
  "catalog",
  "entitlements",
  "customers",
  "devices",
  "sessions",
  "offline",
  "metering",
  "webhooks",
  "reports",
  "clients",
  "users",
  "audit",
] as const;
export type PermissionFamily = (typeof permissionFamilies)[number];
export type Access = "read" | "write";
export type StaffPermission = `${PermissionFamily}.${Access}`;

const allFamilies = (access: Access[]): StaffPermission[] =>
  permissionFamilies.flatMap((family) => access.map((a) => `${family}.${a}` as StaffPermission));

/** What the staff of a vendor's back office may do, by role. */
const operationalReads = allFamilies(["read"]).filter((p) => p !== "users.read" && p !== "audit.read");

export const rolePermissions: Record<StaffRole, ReadonlySet<StaffPermission>> = {
  owner: new Set(allFamilies(["read", "write"])),
  admin: new Set(allFamilies(["read", "write"])),
  "catalog-editor": new Set([...operationalReads, "catalog.write", "clients.write"]),
  support: new Set([
    ...operationalReads,
    "devices.write",
    "sessions.write",
    "offline.write",
    "clients.write",
  ]),
  "read-only": new Set([...operationalReads, "users.read", "audit.read"]),
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (staffRoles as readonly string[]).includes(value);
}

export function hasPermission(role: StaffRole | null | undefined, permission: StaffPermission): boolean {
  return !!role && rolePermissions[role].has(permission);
}

export function permissionsOf(role: StaffRole | null | undefined): StaffPermission[] {
  return role ? [...rolePermissions[role]] : [];
}

/**
 * The API scopes a role may put on a client it registers (or revoke a client holding): least
 * privilege (docs/security.md "Round 3", item 3, with the roles × scopes matrix). An API client
 * is a lasting credential that leaves the back office, so a role below admin grants only the
 * scopes of the work it does itself, never the tenant-wide reads (plaintext activation codes,
 * customers, balances): a catalog editor the catalog resources, support device resets and blocks
 * and sessions, read-only nothing. Owners and admins grant every scope.
 */
const catalogResources = [
  "product",
  "feature-catalog",
  "tag",
  "suite",
  "plan-set",
  "add-on",
  "rating-campaign",
  "monitored-asset",
  "catalog",
];
const supportResources = ["device", "session"];
const scopesOf = (resources: readonly string[]) =>
  scopeCatalog.filter((s) => resources.includes(s.split(".")[1]));

export function grantableScopes(role: StaffRole | null | undefined): readonly string[] {
  switch (role) {
    case "owner":
    case "admin":
      return scopeCatalog;
    case "catalog-editor":
      return scopesOf(catalogResources);
    case "support":
      return scopesOf(supportResources);
    default:
      return [];
  }
}

/** The requested scope patterns that reach beyond what `role` may grant (empty: all grantable). */
export function scopesBeyondRole(role: StaffRole | null | undefined, patterns: readonly string[]): string[] {
  const allowed = new Set(grantableScopes(role));
  return patterns.filter((pattern) => {
    const concrete = pattern === INTEGRATOR_SCOPE ? [INTEGRATOR_SCOPE] : expandScope(pattern);
    return concrete.some((scope) => !allowed.has(scope));
  });
}

/**
 * The API-client screen: a signed-in user registers or revokes only clients whose scopes their role
 * may grant (the CLI, an operator's tool, is not bounded).
 */
export function assertScopesWithinRole(
  // The actor as context.ts defines it, by shape: that file takes StaffRole from here.
  actor: { kind: string; staffRole?: StaffRole | null },
  scopes: readonly string[],
): void {
  if (actor.kind !== "user") return;
  const beyond = scopesBeyondRole(actor.staffRole, scopes);
  if (beyond.length)
    throw new AppError(
      "staff.scope_beyond_role",
      `Your role cannot grant ${beyond.join(", ")}; ask an owner or admin.`,
    );
}
