import fc from "fast-check";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { allContracts } from "../../server/http/contracts/index.ts";
import type { Contract } from "../../server/http/contract.ts";
import { request, type ApiResponse, type TestTenant, createTestTenant } from "../helpers/api.ts";
import { bodyFor, ownerIdFor, paramsOf, queryFor, type OwnerIds } from "../helpers/route-matrix.ts";
import { ALL_PROVISION_SCOPES, PROVISION, seedTenantWorld } from "../helpers/tenant-world.ts";

/**
 * docs/security.md "Suites": fast-check over every request schema family (each contract's body,
 * query and path parameters): extreme numbers, wrong types, huge strings, unicode, deep JSON,
 * malformed ids, and valid bodies with one field replaced by any of those. Never a 500; every
 * refusal is problem+json with a numeric code and a codeName. Bounded and reproducible: the seed is
 * fixed (FUZZ_SEED overrides it) and printed, FUZZ_RUNS sets the cases per route.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);

const routes = allContracts.filter(
  (c) => c.path.startsWith(PROVISION) && (c.body || c.query || c.params) && c.method !== "DELETE",
);

const extremeNumber = fc.constantFrom(
  0,
  -0,
  -1,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  -(2 ** 63),
  0.1 + 0.2,
  1e-320,
);
const nasty = fc.oneof(
  extremeNumber,
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\ud800",
    "😀".repeat(50),
    "a".repeat(70_000),
    "../../etc/passwd",
    '\'; DROP TABLE "Tenant"; --',
    "1e999",
    "-1",
    "NaN",
    "2026-02-30T25:61:00Z",
    "00000000-0000-0000-0000-000000000000",
    "%00",
    "P99999999999999D",
  ),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);
/** JSON 60 levels deep (under the 64-level cap) and 200 levels deep (over it). */
const deep = fc.constantFrom(60, 200).map((depth) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), nasty, deep);
const malformedId = fc.oneof(
  fc.constantFrom("x", "0", "%2e%2e", "not-a-uuid", "00000000-0000-0000-0000-00000000000g", "a".repeat(5000)),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
  fc.uuid(),
);

function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  try {
    const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, unknown>;
      items?: { properties?: Record<string, unknown> };
    };
    return Object.keys(js.properties ?? js.items?.properties ?? {});
  } catch {
    return [];
  }
}

/** One fuzz case: which part is wild, and the value. */
function caseOf(c: Contract, ids: OwnerIds) {
  const fields = fieldsOf(c.body);
  const queryFields = fieldsOf(c.query);
  const valid = bodyFor(c, ids) ?? {};
  const options: fc.Arbitrary<{
    part: string;
    body?: unknown;
    query?: string;
    path?: Record<string, string>;
  }>[] = [];
  if (c.body) {
    options.push(anyJson.map((body) => ({ part: "body", body })));
    if (fields.length)
      options.push(
        fc.tuple(fc.constantFrom(...fields), nasty).map(([field, value]) => ({
          part: `body.${field}`,
          body: Array.isArray(valid)
            ? valid.map((r) => ({ ...(r as object), [field]: value }))
            : { ...(valid as object), [field]: value },
        })),
      );
  }
  if (queryFields.length)
    options.push(
      fc.tuple(fc.constantFrom(...queryFields), nasty).map(([field, value]) => ({
        part: `query.${field}`,
        query: `${field}=${encodeURIComponent(typeof value === "string" ? value.slice(0, 2000) : JSON.stringify(value))}`,
      })),
    );
  const names = paramsOf(c);
  if (names.length)
    options.push(
      fc.tuple(fc.constantFrom(...names), malformedId).map(([name, value]) => ({
        part: `path.${name}`,
        path: { [name]: value },
      })),
    );
  return fc.oneof(...options);
}

function expectNoBug(res: ApiResponse, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 500)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get("content-type"), `${what}: ${res.text.slice(0, 300)}`).toMatch(
      /^application\/problem\+json/,
    );
    expect(typeof res.body.code, what).toBe("number");
    expect(typeof res.body.codeName, what).toBe("string");
  }
}

describe(`fuzzing every request schema family (fast-check seed ${SEED}, ${RUNS} runs per route)`, () => {
  const ids: OwnerIds = {};
  const tokens: Record<string, string> = {};
  let tenant: TestTenant;
  let cases = 0;

  beforeAll(async () => {
    console.info(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} reproduces), ${RUNS} runs per route`);
    tenant = await createTestTenant("Fuzz");
    const world = await seedTenantWorld(tenant);
    Object.assign(ids, world.ids);
    tokens.client = await tenant.token(ALL_PROVISION_SCOPES);
    tokens.consumer = world.consumer.token;
    tokens.license = world.session.token;
  });

  it("covers every /provision route that takes input", () => {
    expect(routes.length).toBeGreaterThan(90);
  });

  it.each(routes.map((c) => [`${c.method} ${c.path}`, c] as const))("%s", async (name, c) => {
    await fc.assert(
      fc.asyncProperty(caseOf(c, ids), async (fuzz) => {
        const path =
          c.path.replace(/\{(\w+)\}/g, (_m, p: string) =>
            encodeURIComponent(fuzz.path?.[p] ?? ownerIdFor(c, p, ids)),
          ) + (fuzz.query ? `?${fuzz.query}` : queryFor(c));
        const body = fuzz.body !== undefined ? fuzz.body : bodyFor(c, ids);
        const res = await request(c.method, path, {
          token: tokens[c.auth.kind],
          ...(body === undefined ? {} : { rawBody: JSON.stringify(body) }),
          headers: { "content-type": "application/json" },
        });
        cases++;
        expectNoBug(res, `${name} with wild ${fuzz.part}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it("anonymous routes and the token endpoint take wild input too", async () => {
    const anonymous = allContracts.filter((c) => c.auth.kind === "anonymous" && c.body);
    expect(anonymous.length).toBeGreaterThanOrEqual(3);
    for (const c of anonymous)
      await fc.assert(
        fc.asyncProperty(anyJson, async (body) => {
          const res = await request(c.method, c.path, {
            rawBody: JSON.stringify(body),
            headers: { "content-type": "application/json" },
          });
          cases++;
          expectNoBug(res, `${c.path} with ${JSON.stringify(body)?.slice(0, 100)}`);
        }),
        { seed: SEED, numRuns: RUNS * 4, endOnFailure: true },
      );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("grant_type", "client_id", "client_secret", "scope", "username"),
          nasty.map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
        ),
        async (form) => {
          const res = await request("POST", "/auth/connect/token", {
            rawBody: new URLSearchParams(form).toString(),
            headers: { "content-type": "application/x-www-form-urlencoded" },
          });
          cases++;
          expect(res.status, res.text).toBeLessThan(500);
          expect(res.body.error ?? res.body.access_token, res.text).toBeTruthy();
        },
      ),
      { seed: SEED, numRuns: RUNS * 8, endOnFailure: true },
    );
    console.info(`fuzz: ${cases} cases sent, none answered 500`);
  });
});
