// README "First run": the links `npm run seed` prints lead to the server the reader started,
// whatever port it runs on.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../server/db/migrate.ts";
import { createTestDatabase, repoRoot, testPostgres, TEST_APP_SECRET } from "../../helpers/test-server.ts";

function seed(databaseUrl: string, env: Record<string, string>) {
  const { PORT: _p, PUBLIC_URL: _u, NEXTAUTH_URL: _n, ...inherited } = process.env;
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts/production.mjs"), "seed"], {
      cwd: repoRoot,
      env: {
        ...inherited,
        DATABASE_URL: databaseUrl,
        APP_SECRET: TEST_APP_SECRET,
        NEXTAUTH_SECRET: TEST_APP_SECRET,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("npm run seed prints links to the server as it was started", () => {
  let database: { url: string; drop: () => Promise<void> };
  let stopPostgres: () => Promise<void>;
  beforeAll(async () => {
    const postgres = await testPostgres();
    stopPostgres = postgres.stop;
    database = await createTestDatabase(postgres.adminUrl);
    await migrate(database.url);
  });
  afterAll(async () => {
    await database.drop();
    await stopPostgres();
  });

  it("on a non-default PORT every link names that port", async () => {
    const res = await seed(database.url, { PORT: "4123" });
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain("http://localhost:4123/admin/sign-in");
    expect(res.output).toContain("http://localhost:4123/portal/sign-in");
    expect(res.output).toContain("http://localhost:4123/auth/connect/token");
    expect(res.output).not.toContain("localhost:3000");
  }, 120_000);

  it("behind a public URL the links use it", async () => {
    const res = await seed(database.url, { PUBLIC_URL: "https://licensing.example.com" });
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain("https://licensing.example.com/admin/sign-in");
    expect(res.output).not.toContain("localhost");
  }, 120_000);
});
