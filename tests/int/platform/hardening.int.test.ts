import { spawn } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../../server/db/client.ts";
import { createTenant } from "../../../server/domain/cross-tenant.ts";
import { baseUrl, createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { migrate } from "../../../server/db/migrate.ts";
import {
  createTestDatabase,
  repoRoot,
  startTestServer,
  TEST_APP_SECRET,
  testPostgres,
  type TestServer,
} from "../../helpers/test-server.ts";
import { uiSignIn } from "../../helpers/ui-session.ts";

/** Hardening of the UI's headers and cookies, the seed and tRPC batching. */

const nonceOf = (csp: string) => /script-src[^;]*'nonce-([^']+)'/.exec(csp)?.[1];

describe("UI pages carry a nonce-based Content-Security-Policy and refuse to be framed", () => {
  for (const page of ["/admin/sign-in", "/portal/sign-in"]) {
    it(`${page}: every script carries the request's nonce, framing is refused`, async () => {
      const res = await fetch(`${baseUrl()}${page}`);
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const nonce = nonceOf(csp);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    });
  }

  it("each page view gets a fresh nonce", async () => {
    const csp = async () =>
      nonceOf((await fetch(`${baseUrl()}/admin/sign-in`)).headers.get("content-security-policy") ?? "");
    const [a, b] = [await csp(), await csp()];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it("the API is left alone: no page policy on JSON answers", async () => {
    const res = await request("GET", "/api/health");
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});

describe("tRPC batches are limited", () => {
  const batch = (size: number) =>
    fetch(
      `${baseUrl()}/api/trpc/${Array.from({ length: size }, () => "me.get").join(",")}?batch=1&input=${encodeURIComponent("{}")}`,
    );

  it("a batch of more than 20 calls is refused with 400 before any call runs", async () => {
    const res = await batch(21);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Batch call exceeds maximum size");
  });

  it("a batch of 20 calls is accepted (each call then answers for itself)", async () => {
    const res = await batch(20);
    const body = (await res.json()) as unknown[];
    expect(body).toHaveLength(20);
  });
});

describe("session cookies are Secure whenever the public URL is https", () => {
  let server: TestServer;
  let db: Db;
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  let local: TestTenant;

  beforeAll(async () => {
    server = await startTestServer({ extraEnv: { PUBLIC_URL: "https://licensing.example.test" } });
    db = createDb(server.databaseUrl, { max: 2 });
    tenant = await createTenant(db, { name: "Secure cookies" });
    local = await createTestTenant("Plain cookies");
  }, 180_000);
  afterAll(async () => {
    await db?.$disconnect();
    await server?.stop();
  });

  it("behind an https public URL the session cookie is Secure (and __Secure- prefixed)", async () => {
    const { setCookies } = await uiSignIn(
      "staff",
      { email: tenant.adminEmail, password: tenant.adminPassword },
      server.baseUrl,
    );
    const session = setCookies.find((line) => /next-auth\.session-token=/.test(line))!;
    expect(session).toMatch(/^__Secure-next-auth\.session-token=/);
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
  });

  it("on a plain-http public URL (local use) the cookie is not marked Secure, so sign-in still works", async () => {
    const { setCookies } = await uiSignIn("staff", {
      email: local.adminEmail,
      password: local.adminPassword,
    });
    const session = setCookies.find((line) => /next-auth\.session-token=/.test(line))!;
    expect(session).toMatch(/^next-auth\.session-token=/);
    expect(session).not.toMatch(/;\s*Secure/i);
  });
});

describe("npm run seed refuses a database that already has other tenants unless forced", () => {
  const seed = (databaseUrl: string, args: string[] = []) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [path.join(repoRoot, "scripts/production.mjs"), "seed", ...args],
        {
          cwd: repoRoot,
          env: {
            ...process.env,
            DATABASE_URL: databaseUrl,
            APP_SECRET: TEST_APP_SECRET,
            NEXTAUTH_SECRET: TEST_APP_SECRET,
            SEED_FORCE: "",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      child.stdout.on("data", (c) => (output += c));
      child.stderr.on("data", (c) => (output += c));
      child.on("exit", (code) => resolve({ code, output }));
    });

  it("against a database with non-demo tenants it exits non-zero, names --force and creates nothing", async () => {
    await createTestTenant("Someone's real tenant");
    const res = await seed(inject("databaseUrl"));
    expect(res.code, res.output).not.toBe(0);
    expect(res.output).toMatch(/--force/);
    expect(await testDb().tenant.findUnique({ where: { slug: "demo" } })).toBeNull();
  }, 60_000);

  it("with --force it seeds the demo tenant beside the others", async () => {
    const postgres = await testPostgres();
    const database = await createTestDatabase(postgres.adminUrl);
    const db = createDb(database.url, { max: 1 });
    try {
      await migrate(database.url);
      await createTenant(db, { name: "Existing vendor" });
      const refused = await seed(database.url);
      expect(refused.code, refused.output).not.toBe(0);
      const forced = await seed(database.url, ["--force"]);
      expect(forced.code, forced.output).toBe(0);
      expect(await db.tenant.findUnique({ where: { slug: "demo" } })).not.toBeNull();
    } finally {
      await db.$disconnect();
      await database.drop();
      await postgres.stop();
    }
  }, 120_000);
});
