import { randomUUID } from "node:crypto";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../../server/trpc/root.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createUser } from "../../server/domain/identity/users.ts";
import { allContracts } from "../../server/http/contracts/index.ts";
import type { Contract } from "../../server/http/contract.ts";
import {
  baseUrl,
  expectProblem,
  request,
  testDb,
  type TestTenant,
  createTestTenant,
} from "../helpers/api.ts";
import { bodyFor, ownerIdFor, paramsOf, queryFor, type OwnerIds } from "../helpers/route-matrix.ts";
import { ALL_PROVISION_SCOPES, consumerOf, seedTenantWorld, tenantRows } from "../helpers/tenant-world.ts";
import { uiSignIn } from "../helpers/ui-session.ts";

/**
 * docs/security.md "Suites", the tenant-isolation sweep. Tenant A (the owner) holds one of every
 * record; tenant B (the stranger) holds its own world too, and uses its credentials on A's ids:
 * - REST, generated from the OpenAPI document the service serves: every operation with a path id,
 *   B's credential of the route's kind on A's ids → 404 (license tokens: 401, another session's);
 * - tRPC, generated from the router: every procedure called by B's signed-in staff user with A's
 *   ids in every id field of its input → never A's data in an answer (no A id, no A name), never 500;
 * - consumer routes: B's portal user, and another customer's user of A itself, on A's customer's ids → 404;
 * and after each sweep A's rows are unchanged (a checksum of every tenant-owned table).
 */

type Operation = { method: string; path: string; contract: Contract };

describe("tenant-isolation sweep", () => {
  const ids: OwnerIds = {};
  let owner: TestTenant;
  let stranger: TestTenant;
  let ownerCode: string;
  const creds: Record<string, string> = {};
  let sameTenantOtherUser: string;
  let staffCookie: string;
  let operations: Operation[] = [];

  beforeAll(async () => {
    owner = await createTestTenant("Sweep owner");
    const world = await seedTenantWorld(owner);
    Object.assign(ids, world.ids);
    ownerCode = world.code;
    stranger = await createTestTenant("Sweep stranger");
    const strangerWorld = await seedTenantWorld(stranger);
    creds.client = await stranger.token(ALL_PROVISION_SCOPES);
    creds.consumer = strangerWorld.consumer.token;
    creds.license = strangerWorld.session.token;
    sameTenantOtherUser = (await consumerOf(owner, world.token)).token;
    const email = `staff-${randomUUID().slice(0, 8)}@example.com`;
    const password = "correct horse battery staple";
    await createUser(systemContext(testDb(), stranger.tenantId, "test"), { email, password, kind: "staff" });
    staffCookie = (await uiSignIn("staff", { email, password, tenant: stranger.tenantSlug })).cookie;

    // The routes come from the document the service publishes, each matched to the contract it was built from.
    const doc = (await request("GET", "/api/v1/openapi.json")).body as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const byOperation = new Map(allContracts.map((c) => [`${c.method.toLowerCase()} ${c.path}`, c]));
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(() => path.startsWith("/api/v1/provision/") && path.includes("{"))
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          contract: byOperation.get(op.operationId)!,
        }))
        .filter((o) => o.contract.auth.kind !== "anonymous"),
    );
  });

  it("REST: every operation with a path id in the OpenAPI document, another tenant's credential on the owner's ids → 404 (license: 401); the owner's rows unchanged", async () => {
    expect(operations.length).toBeGreaterThan(80);
    const before = await tenantRows(owner.tenantId);
    const answers: Record<string, number> = {};
    for (const { method, path, contract } of operations) {
      const url =
        path.replace(/\{(\w+)\}/g, (_m, name: string) =>
          encodeURIComponent(ownerIdFor(contract, name, ids)),
        ) + queryFor(contract);
      const res = await request(method, url, {
        token: creds[contract.auth.kind],
        body: bodyFor(contract, ids),
      });
      const expected: [number, string] =
        contract.auth.kind === "license"
          ? [401, "license.session_token_rejected"]
          : [404, "license.not_found"];
      expectProblem(res, ...expected);
      answers[contract.auth.kind] = (answers[contract.auth.kind] ?? 0) + 1;
    }
    expect(await tenantRows(owner.tenantId)).toEqual(before);
    console.info(`isolation sweep: REST ${operations.length} operations swept ${JSON.stringify(answers)}`);
  });

  it("consumer routes: another customer's portal user of the same tenant on the owner customer's ids → 404; rows unchanged", async () => {
    const consumerRoutes = operations.filter(
      (o) => o.contract.auth.kind === "consumer" && paramsOf(o.contract).length,
    );
    expect(consumerRoutes.length).toBeGreaterThanOrEqual(3);
    const before = await tenantRows(owner.tenantId);
    for (const { method, path, contract } of consumerRoutes) {
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(ownerIdFor(contract, name, ids)),
      );
      expectProblem(
        await request(method, url, { token: sameTenantOtherUser, body: bodyFor(contract, ids) }),
        404,
        "license.not_found",
      );
    }
    expect(await tenantRows(owner.tenantId)).toEqual(before);
  });

  it("tRPC: every procedure, called by another tenant's staff user with the owner's ids, answers none of the owner's data and never 500; rows unchanged", async () => {
    const procedures = Object.entries(
      (appRouter as unknown as { _def: { procedures: Record<string, { _def: ProcedureDef }> } })._def
        .procedures,
    ).filter(([, p]) => p._def.type !== "subscription");
    expect(procedures.length).toBeGreaterThan(100);
    const ownerValues = [...Object.values(ids).filter((v) => /^[0-9a-f-]{36}$/.test(v)), ownerCode];
    const before = await tenantRows(owner.tenantId);
    const outcome: Record<string, number> = {};
    let withOwnerIds = 0;
    for (const [path, procedure] of procedures) {
      const schema = procedure._def.inputs[0] as z.ZodType | undefined;
      const filled = schema ? inputFor(schema, path, ids) : { value: undefined, ids: 0 };
      if (filled.ids) withOwnerIds++;
      const res = await trpcCall(
        procedure._def.type as "query" | "mutation",
        path,
        filled.value,
        staffCookie,
      );
      outcome[res.code] = (outcome[res.code] ?? 0) + 1;
      expect(res.code, `${path}: ${res.text.slice(0, 300)}`).not.toBe("INTERNAL_SERVER_ERROR");
      // An answer may echo the ids it was asked about (a report names its filters); anything else
      // of the owner's (another id, a name carrying the owner's code) is a leak.
      const sent = JSON.stringify(filled.value ?? null);
      if (res.code === "OK")
        for (const value of ownerValues.filter((v) => v === ownerCode || !sent.includes(v)))
          expect(
            res.text.includes(value),
            `${path} answered the owner's ${value}: ${res.text.slice(0, 300)}`,
          ).toBe(false);
    }
    expect(await tenantRows(owner.tenantId)).toEqual(before);
    console.info(
      `isolation sweep: tRPC ${procedures.length} procedures (${withOwnerIds} with owner ids) ${JSON.stringify(outcome)}`,
    );
  });
});

type ProcedureDef = { type: "query" | "mutation" | "subscription"; inputs: unknown[] };

/** Which owner record an id field names: by field name, else (a plain `id`) by the router it belongs to. */
const idByField: Record<string, string> = {
  entitlementId: "entitlement",
  productId: "product",
  productIds: "product",
  suiteId: "suite",
  planSetId: "planSet",
  addOnId: "addOn",
  tagId: "tag",
  tagIds: "tag",
  intoTagId: "otherTag",
  featureCatalogId: "feature",
  featureId: "feature",
  sessionId: "session",
  offerId: "offer",
  customerId: "customerUser",
  customerUserId: "customerUser",
  userId: "customerUser",
  organizationId: "organization",
  campaignId: "campaign",
  deviceId: "device",
  activationCodeId: "activationCode",
  codeId: "activationCode",
  grantId: "entitlementGrant",
  planChangeRequestId: "planChangeRequest",
  requestId: "planChangeRequest",
  balanceId: "balance",
  assetId: "asset",
  monitoredAssetId: "asset",
};
const idByRouter: Record<string, string> = {
  tags: "tag",
  products: "product",
  featureCatalog: "feature",
  monitoredAssets: "asset",
  suites: "suite",
  planSets: "planSet",
  addOns: "addOn",
  ratingCampaigns: "campaign",
  entitlements: "entitlement",
  customers: "customerUser",
  sessions: "session",
  licensing: "entitlement",
  balances: "entitlement",
  meters: "entitlement",
  offlineActivations: "entitlement",
};

type Json = {
  type?: string | string[];
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  enum?: unknown[];
  minimum?: number;
  default?: unknown;
  anyOf?: Json[];
  format?: string;
};

/** An input for the procedure: the owner's ids in every id field, the simplest valid value elsewhere. */
function inputFor(schema: z.ZodType, path: string, ids: OwnerIds): { value: unknown; ids: number } {
  let count = 0;
  const router = path.split(".")[0];
  let js: Json;
  try {
    js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  } catch {
    return { value: {}, ids: 0 };
  }
  const idFor = (field: string) => {
    const which = idByField[field] ?? (field === "id" ? idByRouter[router] : undefined);
    return which ? ids[which] : undefined;
  };
  const fill = (s: Json, field: string, depth: number): unknown => {
    const id = /(^id$|Ids?$)/.test(field) ? idFor(field) : undefined;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (id) {
      count++;
      return type === "array" ? [id] : id;
    }
    if (s.anyOf?.length) return fill(s.anyOf[0], field, depth);
    if (s.enum?.length) return s.enum[0];
    if (s.default !== undefined) return s.default;
    switch (type) {
      case "object": {
        const out: Record<string, unknown> = {};
        for (const [name, prop] of Object.entries(s.properties ?? {}))
          if ((s.required ?? []).includes(name) || /(^id$|Ids?$)/.test(name))
            out[name] = fill(prop, name, depth + 1);
        return out;
      }
      case "array":
        return [];
      case "string":
        return s.format === "uuid" ? randomUUID() : s.format === "date-time" ? new Date().toISOString() : "x";
      case "integer":
      case "number":
        return Math.max(1, s.minimum ?? 1);
      case "boolean":
        return false;
      default:
        return depth === 0 ? {} : null;
    }
  };
  const value = fill(js, "", 0);
  return { value, ids: count };
}

async function trpcCall(type: "query" | "mutation", path: string, input: unknown, cookie: string) {
  const res =
    type === "query"
      ? await fetch(
          `${baseUrl()}/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          { headers: { cookie } },
        )
      : await fetch(`${baseUrl()}/api/trpc/${path}`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: input === undefined ? undefined : JSON.stringify(input),
        });
  const text = await res.text();
  let code = res.ok ? "OK" : `HTTP_${res.status}`;
  try {
    const body = JSON.parse(text) as { error?: { data?: { code?: string } } };
    if (body.error?.data?.code) code = body.error.data.code;
  } catch {
    // a streamed or non-JSON answer keeps its HTTP status as the code
  }
  return { code, text };
}
