import { describe, expect, it } from "vitest";
import {
  expandScope,
  grantScopes,
  hasScope,
  isValidScopePattern,
  scopeCatalog,
  scopeMatches,
  verbForMethod,
} from "./scopes.ts";
import {
  assertScopesWithinRole,
  grantableScopes,
  isStaffRole,
  scopesBeyondRole,
} from "./staff-roles/staff-roles.ts";

/**
 * The scope catalog (docs/architecture.md section 5) and what each staff role may put on an API
 * client (docs/security.md "Round 3", item 3), written out.
 */
const VERBS = ["read", "create", "update", "delete"];
const scopesOf = (...resources: string[]) =>
  resources.flatMap((resource) => VERBS.map((verb) => `provision.${resource}.${verb}`));
const ALL_RESOURCES = [
  "product",
  "feature-catalog",
  "tag",
  "suite",
  "plan-set",
  "add-on",
  "rating-campaign",
  "monitored-asset",
  "catalog",
  "entitlement-adm",
  "session",
  "activation-code",
  "device",
  "balance",
  "usage",
  "offline",
  "customer",
  "webhook",
  "report",
  "audit",
];
const EVERY_SCOPE = [...scopesOf(...ALL_RESOURCES), "webhooks.integrator"];
const CATALOG_EDITOR = scopesOf(
  "product",
  "feature-catalog",
  "tag",
  "suite",
  "plan-set",
  "add-on",
  "rating-campaign",
  "monitored-asset",
  "catalog",
);

function refusal(call: () => unknown): { codeName: string; message: string } | "no error" {
  try {
    call();
    return "no error";
  } catch (error) {
    const e = error as { codeName: string; message: string };
    return { codeName: e.codeName, message: e.message };
  }
}

describe("the scope catalog", () => {
  it("provision.<resource>.<verb> for twenty resources and four verbs, then the integrator scope", () => {
    expect(scopeCatalog).toEqual(EVERY_SCOPE);
    expect(scopeCatalog).toHaveLength(81);
  });

  it("verbs by HTTP method, any case; other methods have none", () => {
    expect(["get", "HEAD", "post", "Put", "patch", "delete"].map(verbForMethod)).toEqual([
      "read",
      "read",
      "create",
      "update",
      "update",
      "delete",
    ]);
    expect(() => verbForMethod("OPTIONS")).toThrow("No scope verb for method OPTIONS");
  });

  it.each([
    ["provision.tag", "provision.tag.read", false],
    ["provision.tag.read.x", "provision.tag.read", false],
    ["provision.*", "provision", false],
    ["provision.*", "provision.tag", true],
    ["*.tag.read", "provision.tag.read", true],
    ["*.tag.read", "provision.tag.create", false],
    ["provision.*.read", "provision.tag", false],
    ["provision.*.*", "provision.tag.read", true],
    ["provision.tag.*", "provision.tag", false],
    ["webhooks.integrator", "webhooks.integrator", true],
  ])("%s covers %s: %s", (pattern, scope, covers) => {
    expect(scopeMatches(pattern, scope)).toBe(covers);
  });

  it.each([
    ["provision.*", true],
    ["*", true],
    ["webhooks.integrator", true],
    ["provision.*.read", true],
    ["provision.tag.read", true],
    ["", false],
    ["provision..tag", false],
    ["provision.tag.read ", false],
    ["provision.Tag.read", false],
    ["1provision.tag.read", false],
    ["provision.tag-x.read", false],
    ["provision.tag.read.", false],
    ["-provision.tag.read", false],
  ])("%j is a valid pattern: %s", (pattern, valid) => {
    expect(isValidScopePattern(pattern)).toBe(valid);
  });

  it("a pattern expands to the catalog's scopes it covers, in catalog order", () => {
    expect(expandScope("provision.*.delete")).toEqual(ALL_RESOURCES.map((r) => `provision.${r}.delete`));
    expect(expandScope("*")).toEqual(EVERY_SCOPE);
    expect(expandScope("provision.nothing.read")).toEqual([]);
  });

  it("a token's scopes: requested ∩ registered, in catalog order", () => {
    expect(grantScopes(["provision.tag.read", "provision.product.read"], ["*"])).toEqual([
      "provision.product.read",
      "provision.tag.read",
    ]);
    expect(grantScopes(["webhooks.integrator"], ["webhooks.*"])).toEqual(["webhooks.integrator"]);
    expect(grantScopes(["webhooks.integrator"], ["provision.*"])).toEqual([]);
    expect(grantScopes(["provision.nothing.read"], ["*"])).toEqual([]);
  });

  it("a required scope is held when one granted pattern covers it", () => {
    expect(hasScope(["provision.*"], "provision.tag.read")).toBe(true);
    expect(hasScope(["provision.tag.read", "provision.product.*"], "provision.product.delete")).toBe(true);
    expect(hasScope(["provision.tag.*"], "provision.product.read")).toBe(false);
  });
});

describe("the API scopes each staff role may grant, written out", () => {
  it.each([
    ["owner", EVERY_SCOPE],
    ["admin", EVERY_SCOPE],
    ["catalog-editor", CATALOG_EDITOR],
    ["support", scopesOf("session", "device")],
    ["read-only", []],
    [null, []],
    [undefined, []],
  ] as const)("%s", (role, expected) => {
    expect(grantableScopes(role)).toEqual(expected);
  });

  it("the integrator scope: only owners and admins grant it", () => {
    expect(scopesBeyondRole("owner", ["webhooks.integrator"])).toEqual([]);
    expect(scopesBeyondRole("support", ["webhooks.integrator", "provision.device.read"])).toEqual([
      "webhooks.integrator",
    ]);
    expect(scopesBeyondRole("catalog-editor", ["webhooks.*"])).toEqual(["webhooks.*"]);
  });

  it("a pattern is beyond the role when any scope it stands for is", () => {
    expect(scopesBeyondRole("support", ["provision.*.read"])).toEqual(["provision.*.read"]);
    expect(scopesBeyondRole("support", ["provision.session.*", "provision.device.*"])).toEqual([]);
    expect(scopesBeyondRole("owner", ["*"])).toEqual([]);
    expect(scopesBeyondRole("admin", [])).toEqual([]);
  });

  it("a user's client may not reach beyond the user's role; other actors are not bounded", () => {
    expect(
      refusal(() =>
        assertScopesWithinRole({ kind: "user", staffRole: "read-only" }, [
          "provision.tag.read",
          "provision.device.read",
        ]),
      ),
    ).toEqual({
      codeName: "staff.scope_beyond_role",
      message: "Your role cannot grant provision.tag.read, provision.device.read; ask an owner or admin.",
    });
    expect(
      refusal(() => assertScopesWithinRole({ kind: "user", staffRole: "support" }, ["provision.device.*"])),
    ).toBe("no error");
    expect(
      refusal(() => assertScopesWithinRole({ kind: "user", staffRole: null }, ["provision.tag.read"])),
    ).toEqual({
      codeName: "staff.scope_beyond_role",
      message: "Your role cannot grant provision.tag.read; ask an owner or admin.",
    });
    expect(refusal(() => assertScopesWithinRole({ kind: "cli" }, ["provision.*"]))).toBe("no error");
    expect(refusal(() => assertScopesWithinRole({ kind: "client" }, ["provision.*"]))).toBe("no error");
  });

  it("a staff role is one of the five names, exactly", () => {
    expect(["owner", "admin", "catalog-editor", "support", "read-only"].every(isStaffRole)).toBe(true);
    expect(["Owner", "readonly", "", 1, null, undefined].some(isStaffRole)).toBe(false);
  });
});
