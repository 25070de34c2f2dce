import { describe, expect, it } from "vitest";
import {
  expandScope,
  grantScopes,
  hasScope,
  isValidScopePattern,
  scopeMatches,
  verbForMethod,
} from "./scopes.ts";

describe("scope matching", () => {
  it("an exact scope matches itself only", () => {
    expect(scopeMatches("provision.tag.read", "provision.tag.read")).toBe(true);
    expect(scopeMatches("provision.tag.read", "provision.tag.create")).toBe(false);
  });

  it("a trailing * matches the rest; an inner * matches one segment", () => {
    expect(scopeMatches("provision.*", "provision.tag.read")).toBe(true);
    expect(scopeMatches("provision.tag.*", "provision.tag.delete")).toBe(true);
    expect(scopeMatches("provision.tag.*", "provision.product.read")).toBe(false);
    expect(scopeMatches("provision.*.read", "provision.tag.read")).toBe(true);
    expect(scopeMatches("provision.*.read", "provision.tag.create")).toBe(false);
    expect(scopeMatches("provision.*", "webhooks.integrator")).toBe(false);
    expect(scopeMatches("*", "webhooks.integrator")).toBe(true);
  });

  it("verbs follow the HTTP method", () => {
    expect(["GET", "POST", "PUT", "PATCH", "DELETE"].map(verbForMethod)).toEqual([
      "read",
      "create",
      "update",
      "update",
      "delete",
    ]);
  });

  it("expands patterns to catalog scopes and refuses unknown ones", () => {
    expect(expandScope("provision.tag.*")).toEqual([
      "provision.tag.read",
      "provision.tag.create",
      "provision.tag.update",
      "provision.tag.delete",
    ]);
    expect(isValidScopePattern("provision.nothing.*")).toBe(false);
    expect(isValidScopePattern("provision.tag.read")).toBe(true);
    expect(isValidScopePattern("PROVISION.TAG.READ")).toBe(false);
  });

  it("grants requested ∩ registered, both sides with wildcards", () => {
    expect(grantScopes(["provision.*"], ["provision.tag.read", "provision.product.*"])).toEqual([
      "provision.product.read",
      "provision.product.create",
      "provision.product.update",
      "provision.product.delete",
      "provision.tag.read",
    ]);
    expect(grantScopes(["provision.tag.create"], ["provision.tag.read"])).toEqual([]);
    expect(grantScopes([], ["provision.*"])).toEqual([]);
  });

  it("hasScope checks a required scope against granted patterns", () => {
    expect(hasScope(["provision.tag.read"], "provision.tag.read")).toBe(true);
    expect(hasScope([], "provision.tag.read")).toBe(false);
  });
});
