import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest, type IncomingMessage } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, expectProblem, type TestTenant } from "../../helpers/api.ts";
import { activateJwt, licensedEntitlement } from "../../helpers/runtime.ts";
import { freePort, repoRoot, TEST_APP_SECRET, TEST_NEXTAUTH_SECRET } from "../../helpers/test-server.ts";
import { webArgs } from "../../../scripts/lib/supervise.ts";

/**
 * The production web entry (server/web/main.ts, docs/architecture.md section 11) is what every integration test
 * talks to; these cases are about the address it stamps for activationPolicy.allowedIpCidr
 * (docs/security.md "Caller address").
 */

const forgedAddress = "203.0.113.9";
const forgedHeaders = {
  "x-forwarded-for": forgedAddress,
  "x-real-ip": forgedAddress,
  "x-licensing-peer-address": forgedAddress,
  "x-licensing-peer-stamp": "guessed-stamp",
};

describe("the caller's address through the custom server", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTestTenant("Runtime lane");
  });

  it("a forged X-Forwarded-For (or peer-address header) does not pass allowedIpCidr: only the socket's address counts", async () => {
    const { code } = await licensedEntitlement(tenant, {
      activationPolicy: { allowedIpCidr: ["203.0.113.0/24"] },
    });
    const res = await activateJwt({ activationCode: code, fingerprint: "forged-xff" }, forgedHeaders);
    expectProblem(res, 403, "license.ip_not_allowed");
  });

  it("the socket's own address passes a policy that allows it", async () => {
    const { code } = await licensedEntitlement(tenant, {
      activationPolicy: { allowedIpCidr: ["127.0.0.0/8", "::1/128"] },
    });
    const res = await activateJwt({ activationCode: code, fingerprint: "loopback" }, forgedHeaders);
    expect(res.status, res.text).toBe(200);
  });
});

/**
 * A web process of its own on the test database: `next start` (the production build without the
 * web entry) or the web entry itself (server/web/main.ts).
 */
async function startWeb(kind: "next start" | "web entry"): Promise<{ baseUrl: string; child: ChildProcess }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const args =
    kind === "web entry"
      ? webArgs(port, "127.0.0.1")
      : [
          path.join(repoRoot, "node_modules/next/dist/bin/next"),
          "start",
          "-p",
          String(port),
          "-H",
          "127.0.0.1",
        ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: inject("databaseUrl"),
      APP_SECRET: TEST_APP_SECRET,
      NEXTAUTH_SECRET: TEST_NEXTAUTH_SECRET,
      NEXTAUTH_URL: baseUrl,
      LOG_LEVEL: "warn",
    },
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${kind} exited with ${child.exitCode}`);
    const up = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { baseUrl, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`${kind} did not become healthy`);
}

describe("issue 11 item 10: allowedIpCidr failed open when the peer-address stamp was missing (plain next start)", () => {
  let tenant: TestTenant;
  let plain: { baseUrl: string; child: ChildProcess };
  beforeAll(async () => {
    tenant = await createTestTenant("Plain next start");
    plain = await startWeb("next start");
  });
  afterAll(() => {
    plain?.child.kill("SIGKILL");
  });

  it("a client that sends the peer-address header itself is refused: without the web entry's stamp the address is unknown", async () => {
    const { code } = await licensedEntitlement(tenant, {
      activationPolicy: { allowedIpCidr: ["203.0.113.0/24", "127.0.0.0/8", "::1/128"] },
    });
    const res = await fetch(`${plain.baseUrl}/api/v1/provision/activations/jwt`, {
      method: "POST",
      headers: { "content-type": "application/json", ...forgedHeaders },
      body: JSON.stringify({ activationCode: code, fingerprint: "plain-next-start" }),
    });
    const body = (await res.json()) as { codeName?: string };
    expect(res.status).toBe(403);
    expect(body.codeName).toBe("license.ip_not_allowed");
  });

  it("an entitlement without an address policy still activates there", async () => {
    const { code } = await licensedEntitlement(tenant);
    const res = await fetch(`${plain.baseUrl}/api/v1/provision/activations/jwt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ activationCode: code, fingerprint: "plain-no-policy" }),
    });
    expect(res.status).toBe(200);
  });
});

describe("graceful shutdown of the web entry", () => {
  it("on SIGTERM a request under way is answered (Connection: close), new connections are refused, and the process exits 0", async () => {
    const web = await startWeb("web entry");
    try {
      const exited = new Promise<number | null>((resolve) => web.child.once("exit", (code) => resolve(code)));
      const url = new URL("/api/v1/provision/activations/jwt", web.baseUrl);
      const answered = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
        const req = httpRequest(url, {
          method: "POST",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString("utf8")));
          res.on("end", () => resolve({ res, body }));
        });
        req.on("error", reject);
        // Half of the body now; the rest only after the signal.
        req.write('{"activationCode":"NONE-NONE-');
        void (async () => {
          // The server answers another request first, so it has read the first one's headers.
          expect((await fetch(`${web.baseUrl}/api/health`)).status).toBe(200);
          web.child.kill("SIGTERM");
          // Stopping: a new connection is refused once the server no longer listens.
          const deadline = Date.now() + 10_000;
          while (Date.now() < deadline) {
            const refused = await fetch(`${web.baseUrl}/api/health`, {
              headers: { connection: "close" },
            }).then(
              () => false,
              () => true,
            );
            if (refused) break;
            await new Promise((r) => setTimeout(r, 50));
          }
          req.end('NONE-NONE","fingerprint":"drain"}');
        })().catch(reject);
      });
      const { res, body } = await answered;
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(body)).toMatchObject({ codeName: "license.not_found" });
      expect(res.headers.connection).toBe("close");
      expect(await exited).toBe(0);
    } finally {
      web.child.kill("SIGKILL");
    }
  });
});
