import { describe, expect, it } from "vitest";
import { grantableScopes, hasPermission, scopesBeyondRole, staffRoles } from "./staff-roles.ts";

describe("staff role catalog", () => {
  it("each role's permissions are a subset of the role above it (read-only's audit and users reads apart)", () => {
    expect(hasPermission("owner", "users.write")).toBe(true);
    expect(hasPermission("admin", "users.write")).toBe(true);
    expect(hasPermission("catalog-editor", "catalog.write")).toBe(true);
    expect(hasPermission("catalog-editor", "entitlements.write")).toBe(false);
    expect(hasPermission("support", "devices.write")).toBe(true);
    expect(hasPermission("support", "catalog.write")).toBe(false);
    expect(hasPermission("read-only", "audit.read")).toBe(true);
    for (const role of staffRoles) expect(hasPermission(role, "catalog.read")).toBe(true);
    expect(hasPermission(null, "catalog.read")).toBe(false);
  });

  it("a role grants only the API scopes its permissions cover, wildcards expanded", () => {
    expect(scopesBeyondRole("catalog-editor", ["provision.product.*", "provision.tag.read"])).toEqual([]);
    expect(scopesBeyondRole("catalog-editor", ["provision.*"])).toEqual(["provision.*"]);
    expect(scopesBeyondRole("support", ["provision.device.*", "provision.session.read"])).toEqual([]);
    expect(scopesBeyondRole("support", ["provision.entitlement-adm.read"])).toEqual([
      "provision.entitlement-adm.read",
    ]);
    expect(scopesBeyondRole("support", ["provision.balance.create"])).toEqual(["provision.balance.create"]);
    expect(scopesBeyondRole("read-only", ["provision.*.read"])).toEqual(["provision.*.read"]);
    expect(scopesBeyondRole("admin", ["provision.*", "webhooks.integrator"])).toEqual([]);
    expect(grantableScopes("catalog-editor")).not.toContain("provision.audit.read");
    expect(scopesBeyondRole(null, ["provision.tag.read"])).toEqual(["provision.tag.read"]);
  });
});
