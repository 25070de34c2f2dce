import { beforeAll, describe, expect, it } from "vitest";
import { allContracts } from "../../../server/http/contracts/index.ts";
import type { Contract } from "../../../server/http/contract.ts";
import { requiredScope } from "../../../server/http/auth.ts";
import { hasScope } from "../../../server/domain/identity/scopes.ts";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";
import { bodyFor, ownerIdFor, paramsOf, queryFor, type OwnerIds } from "../../helpers/route-matrix.ts";
import {
  ALL_PROVISION_SCOPES,
  PROVISION,
  activatedLicense,
  consumerOf,
  seedTenantWorld,
  tenantRows,
} from "../../helpers/tenant-world.ts";

/**
 * docs/architecture.md section 9 for every authenticated `/api/v1/provision` route, generated from the
 * contracts (a route added later is in the matrix without anyone listing it):
 * - client routes: no token 401; a token of the route's resource with another verb 403; the
 *   other tenant's credential with the owner's id in every path parameter 404;
 * - consumer routes: no token 401; an admin client token 401 (not a user token); another tenant's
 *   user with the owner's ids 404;
 * - license-session routes: no token, or a client token, 401 `license.session_token_rejected`;
 *   another tenant's session token naming the owner's session 401 (it is another session's token);
 * and after each route's requests, none of the owner's rows has changed.
 * A route whose auth kind, path parameter or required body the matrix does not know fails here.
 */

const routes = allContracts.filter((c) => c.path.startsWith(PROVISION) && c.auth.kind !== "anonymous");
describe("every /provision route: 401 without credentials, 403 (or 401) with the wrong ones, 404 for another tenant's ids", () => {
  const ids: OwnerIds = {};
  let owner: TestTenant;
  let foreignAdmin: string;
  let foreignConsumer: string;
  let foreignLicense: string;
  let ownerRows: Record<string, string>;
  const scopedTokens = new Map<string, Promise<string>>();
  let stranger: TestTenant;

  beforeAll(async () => {
    owner = await createTestTenant("Provision matrix owner");
    Object.assign(ids, (await seedTenantWorld(owner)).ids);
    stranger = await createTestTenant("Provision matrix stranger");
    foreignAdmin = await stranger.token(ALL_PROVISION_SCOPES);
    foreignConsumer = (await consumerOf(stranger, foreignAdmin)).token;
    foreignLicense = (await activatedLicense(foreignAdmin)).session.token;
    ownerRows = await tenantRows(owner.tenantId);
  });

  /** A token of the route's own resource with another verb than the one it needs. */
  function wrongScopeToken(c: Contract): Promise<string> {
    const required = requiredScope(c.auth, c.method)!;
    const [, resource, verb] = required.split(".");
    const scope = `provision.${resource}.${verb === "read" ? "create" : "read"}`;
    expect(hasScope([scope], required)).toBe(false);
    if (!scopedTokens.has(scope)) scopedTokens.set(scope, stranger.token(scope));
    return scopedTokens.get(scope)!;
  }

  const rules: Record<
    string,
    {
      unauthenticated: string;
      wrong: (c: Contract) => Promise<string>;
      wrongAnswer: [number, string];
      foreign: () => string;
      foreignAnswer: [number, string];
    }
  > = {
    client: {
      unauthenticated: "auth.unauthenticated",
      wrong: wrongScopeToken,
      wrongAnswer: [403, "auth.insufficient_scope"],
      foreign: () => foreignAdmin,
      foreignAnswer: [404, "license.not_found"],
    },
    consumer: {
      unauthenticated: "auth.unauthenticated",
      wrong: async () => foreignAdmin,
      wrongAnswer: [401, "auth.unauthenticated"],
      foreign: () => foreignConsumer,
      foreignAnswer: [404, "license.not_found"],
    },
    license: {
      unauthenticated: "license.session_token_rejected",
      wrong: async () => foreignAdmin,
      wrongAnswer: [401, "license.session_token_rejected"],
      foreign: () => foreignLicense,
      foreignAnswer: [401, "license.session_token_rejected"],
    },
  };

  it("covers every authenticated /provision route, of every auth kind", () => {
    expect(routes.length).toBeGreaterThanOrEqual(100);
    for (const c of routes)
      expect(rules[c.auth.kind], `${c.method} ${c.path}: auth kind ${c.auth.kind} has no rule`).toBeDefined();
    expect(new Set(routes.map((c) => c.auth.kind))).toEqual(new Set(Object.keys(rules)));
    // The unchanged-rows check means something only where the owner has rows.
    const empty = "d41d8cd98f00b204e9800998ecf8427e";
    const seeded = Object.entries(ownerRows)
      .filter(([, hash]) => hash !== empty)
      .map(([table]) => table);
    expect(seeded).toEqual(
      expect.arrayContaining(["Tag", "Product", "Entitlement", "LicenseSession", "Device"]),
    );
    expect(seeded.length).toBeGreaterThan(20);
  });

  it.each(routes.map((c) => [`${c.method} ${c.path}`, c] as const))("%s", async (_name, c) => {
    const rule = rules[c.auth.kind];
    if (!rule)
      throw new Error(`${c.method} ${c.path}: the route matrix has no rule for auth kind ${c.auth.kind}`);
    const path =
      c.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(ownerIdFor(c, name, ids))) +
      queryFor(c);
    const body = bodyFor(c, ids);
    const before = await tenantRows(owner.tenantId);
    expectProblem(await request(c.method, path, { body }), 401, rule.unauthenticated);
    const [wrongStatus, wrongCode] = rule.wrongAnswer;
    expectProblem(
      await request(c.method, path, { token: await rule.wrong(c), body }),
      wrongStatus,
      wrongCode,
    );
    if (paramsOf(c).length) {
      const [status, code] = rule.foreignAnswer;
      expectProblem(await request(c.method, path, { token: rule.foreign(), body }), status, code);
    }
    expect(await tenantRows(owner.tenantId)).toEqual(before);
  });
});
