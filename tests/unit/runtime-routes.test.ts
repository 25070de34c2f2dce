import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { matchRuntimeRoute, runtimeRoutePaths } from "../../server/web/runtime-routes.ts";

const root = path.resolve(import.meta.dirname, "../..");
const routeFiles = (dir: string): string[] =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [dir] : [],
  );

describe("the runtime lane's route table (server/web/runtime-routes.ts)", () => {
  it("lists exactly the activation, session and usage route files of app/api, and the metrics the web process keeps", () => {
    const expected = [
      ...routeFiles("app/api/v1/provision/usage"),
      ...routeFiles("app/api/v1/provision/activations"),
      "app/api/metrics",
    ].map((dir) => `/${path.relative("app", dir)}`);
    expect(runtimeRoutePaths().sort()).toEqual(expected.sort());
    for (const p of runtimeRoutePaths()) expect(existsSync(path.join(root, "app", p, "route.ts"))).toBe(true);
  });

  it("static segments win over parameters, as in Next.js", () => {
    expect(matchRuntimeRoute("POST", "/api/v1/provision/usage/consume/s1/consumption")?.path).toBe(
      "/api/v1/provision/usage/consume/[sessionId]/[metric]",
    );
    expect(matchRuntimeRoute("GET", "/api/v1/provision/usage/s1/api-calls/consumption")).toMatchObject({
      path: "/api/v1/provision/usage/[sessionId]/[metric]/consumption",
      params: { sessionId: "s1", metric: "api-calls" },
    });
    expect(matchRuntimeRoute("POST", "/api/v1/provision/activations/jwt")?.path).toBe(
      "/api/v1/provision/activations/jwt",
    );
    expect(matchRuntimeRoute("POST", "/api/v1/provision/activations/abc/renew")?.params).toEqual({
      sessionId: "abc",
    });
  });

  it("leaves to Next.js what it does not serve: other paths, other methods, trailing slashes, bad encoding", () => {
    expect(matchRuntimeRoute("GET", "/api/v1/provision/activations/jwt")).toBeNull();
    expect(matchRuntimeRoute("POST", "/api/v1/provision/activations/jwt/")).toBeNull();
    expect(matchRuntimeRoute("POST", "/api/v1/provision/admin/products")).toBeNull();
    expect(matchRuntimeRoute("POST", "/api/v1/provision/activations/%E0%A4%A/renew")).toBeNull();
    expect(matchRuntimeRoute("GET", "/api/health")).toBeNull();
    expect(matchRuntimeRoute("GET", "/api/metrics")?.path).toBe("/api/metrics");
  });
});
