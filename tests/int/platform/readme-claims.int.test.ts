import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { request } from "../../helpers/api.ts";
import { taskList } from "../../../server/jobs/index.ts";

/**
 * The README claims only what works. What it names is checked against the
 * running service and the tree: every API path answers (it is one of the OpenAPI document's routes,
 * or, for the few outside it, the server does not answer 404), every back-office and portal page
 * exists, every worker job is a task the worker runs, every `npm run` script and benchmark scenario
 * exists, and every configuration variable of its table is read by the code.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** Full paths the README names (`/api/...`, `/auth/...`), placeholders like ID or TENANT_ID kept. */
const apiPaths = [
  ...new Set(
    [...readme.matchAll(/\/(?:api|auth)\/[A-Za-z0-9_\-./{}…]+/g)]
      .map((m) => m[0].replace(/[.…]+$/, ""))
      .filter((p) => !p.includes("…")),
  ),
];

/** Page paths the README names (`/admin...`, `/portal...`): not inside an API path or URL, nor
 * an API path written relative to `/api/v1/provision` after its method (`POST /admin/...`). */
const pagePaths = [
  ...new Set(
    [...readme.matchAll(/\/(?:admin|portal)(?:\/[a-z0-9-]+)*/g)]
      .filter((m) => {
        const before = readme.slice(Math.max(0, m.index - 8), m.index);
        return !/[\w/.:]$/.test(before) && !/(GET|POST|PUT|PATCH|DELETE) `?$/.test(before);
      })
      .map((m) => m[0]),
  ),
];

/** Every page route of the app (route groups in parentheses are not in the URL). */
function pageRoutes(): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string, url: string[]) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        if (entry === "api") continue;
        walk(full, /^\(.*\)$/.test(entry) ? url : [...url, entry]);
      } else if (entry === "page.tsx") out.add(`/${url.join("/")}`);
    }
  };
  walk(path.join(root, "app"), []);
  return out;
}

describe("README claims only what works", () => {
  it("every API path the README names is a route of the service", async () => {
    expect(apiPaths.length).toBeGreaterThan(15);
    const { body } = await request("GET", "/api/v1/openapi.json");
    const templates = Object.keys(body.paths).map(
      (p) => new RegExp(`^${p.replace(/\{\w+\}/g, "[^/]+").replace(/\./g, "\\.")}$`),
    );
    const missing: string[] = [];
    for (const p of apiPaths) {
      if (templates.some((t) => t.test(p))) continue;
      // Outside the OpenAPI document (health, readiness, the token endpoint, the documents).
      const res = await request(
        "GET",
        p.replace(/\b[A-Z][A-Z_]*\b/g, "00000000-0000-4000-8000-000000000000"),
      );
      if (res.status === 404) missing.push(p);
    }
    expect(missing).toEqual([]);
  });

  it("every back-office and portal page the README names exists", () => {
    const pages = pageRoutes();
    expect(pagePaths).toEqual(expect.arrayContaining(["/admin", "/portal", "/admin/meters"]));
    expect(pagePaths.filter((p) => !pages.has(p))).toEqual([]);
  });

  it("every worker job, npm script and benchmark scenario the README names exists", async () => {
    const jobs = [...readme.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)]
      .map((m) => m[1])
      .filter((name) => /_(sweep|purge|retention|balance)$/.test(name));
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.filter((j) => !Object.hasOwn(taskList, j))).toEqual([]);

    const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts;
    const named = [...readme.matchAll(/npm run ([a-z0-9:]+)/g)].map((m) => m[1]);
    expect(named).toEqual(expect.arrayContaining(["test:int", "bench", "seed"]));
    expect(named.filter((s) => !(s in scripts))).toEqual([]);
    for (const file of [...readme.matchAll(/npx tsx (scripts\/[\w./-]+)/g)].map((m) => m[1]))
      expect(existsSync(path.join(root, file)), file).toBe(true);

    const bench = readFileSync(path.join(root, "scripts/bench.ts"), "utf8");
    const scenarios = readme
      .match(/one scenario \(([^)]+)\)/)![1]
      .split("|")
      .map((s) => s.trim());
    expect(scenarios).toContain("reports");
    for (const s of scenarios) expect(bench, s).toMatch(new RegExp(`\\b${s}: \\(\\)`));
  });

  it("every configuration variable in the README's table is read by the code", () => {
    const table = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("## Bootstrap"));
    const variables = [...table.matchAll(/^\| `([A-Z_]+)`(?: \/ `([A-Z_]+)`)?/gm)].flatMap((m) =>
      m.slice(1).filter(Boolean),
    );
    expect(variables.length).toBeGreaterThan(10);
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) {
          if (entry !== "generated" && entry !== "node_modules") walk(full);
        } else if (/\.(ts|tsx|mjs)$/.test(entry)) sources.push(readFileSync(full, "utf8"));
      }
    };
    for (const dir of ["server", "scripts", "tests/helpers", "app"]) walk(path.join(root, dir));
    for (const file of ["next.config.ts", "proxy.ts", "playwright.config.ts"])
      if (existsSync(path.join(root, file))) sources.push(readFileSync(path.join(root, file), "utf8"));
    const all = sources.join("\n");
    expect(variables.filter((v) => !all.includes(v))).toEqual([]);
  });
});
