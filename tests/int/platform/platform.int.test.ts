import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { request, testDb } from "../../helpers/api.ts";
import { errorCatalog } from "../../../server/core/errors.ts";

const apiRoot = path.resolve(import.meta.dirname, "../../../app/api");

/** Every REST route file under app/api with the methods it exports, as OpenAPI paths. */
function routeFiles(): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry === "route.ts") {
        const source = readFileSync(full, "utf8");
        const methods = [
          ...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g),
        ].map((m) => m[1].toLowerCase());
        const routePath =
          "/api/" +
          path
            .relative(apiRoot, path.dirname(full))
            .split(path.sep)
            .map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))
            .join("/");
        out.push({ path: routePath, methods });
      }
    }
  };
  walk(apiRoot);
  return out;
}

/** Plumbing and documentation routes that are not part of the versioned REST contract. */
const undocumented = new Set([
  "/api/health",
  "/api/ready",
  "/api/metrics",
  "/api/v1/openapi.json",
  "/api/v1/scopes",
  "/api/trpc/{trpc}",
  "/api/auth/{...nextauth}",
]);

describe("health and readiness", () => {
  it("GET /api/health answers 200 while the process is up", async () => {
    const res = await request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("GET /api/ready reports the database, migrations and the worker heartbeat", async () => {
    await testDb().workerHeartbeat.deleteMany({});
    const notReady = await request("GET", "/api/ready");
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks).toMatchObject({
      database: true,
      migrations: { pending: [] },
      worker: { fresh: false },
    });
    // A worker's heartbeat (no tenant), written as a worker would, so the test controls its age.
    await testDb().workerHeartbeat.create({
      data: { workerId: "test-worker", lastSeenAt: new Date(), startedAt: new Date() },
    });
    const ready = await request("GET", "/api/ready");
    expect(ready.status).toBe(200);
    expect(ready.body.ready).toBe(true);
    await testDb().workerHeartbeat.update({
      where: { workerId: "test-worker" },
      data: { lastSeenAt: new Date(Date.now() - 5 * 60_000) },
    });
    expect((await request("GET", "/api/ready")).status).toBe(503);
    await testDb().workerHeartbeat.deleteMany({});
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("documents every REST route file's methods, with scopes and problem codes", async () => {
    const res = await request("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const missing: string[] = [];
    for (const file of routeFiles()) {
      if (undocumented.has(file.path)) continue;
      const documented = file.path.startsWith("/api/") ? res.body.paths[file.path] : undefined;
      for (const method of file.methods)
        if (!documented?.[method]) missing.push(`${method.toUpperCase()} ${file.path}`);
    }
    expect(missing).toEqual([]);
    const list = res.body.paths["/api/v1/provision/admin/tags"].get;
    expect(list["x-required-scope"]).toBe("provision.tag.read");
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["pageNumber", "pageSize", "filter", "sortOrder"]),
    );
    const codes = list.responses["400"]["x-problem-codes"].map((c: { codeName: string }) => c.codeName);
    expect(codes).toContain("license.validation_error");
    expect(res.body.paths["/auth/connect/token"].post).toBeDefined();
  });

  it("the problem catalog gives every codeName one distinct integer code and docs/api.md's fixed numbers", async () => {
    const codes = Object.values(errorCatalog).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(errorCatalog["license.not_found"].code).toBe(2004);
    expect(errorCatalog["subscription.not_applicable"].code).toBe(4022);
    expect(errorCatalog["subscription.invalid_url"].code).toBe(4033);
    expect(errorCatalog["subscription.invalid_filter"].code).toBe(4034);
    expect(errorCatalog["subscription.invalid_event_type"].code).toBe(4035);
  });
});

describe("problem+json", () => {
  it("an unsupported media type is a 415 problem, an unknown route has no handler", async () => {
    const res = await request("POST", "/api/v1/provision/admin/tags", {
      rawBody: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    // Authentication runs first: without a token the answer is 401, still problem+json.
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/problem\+json/);
  });
});
