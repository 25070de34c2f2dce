import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, type TestTenant } from "../../helpers/api.ts";
import { uiSignIn } from "../../helpers/ui-session.ts";

/**
 * Bodies were read whole before their size was checked, so parallel anonymous
 * uploads could exhaust the web process's heap. Every body is now read with a byte cap and a body
 * over the cap is answered 413 while its upload is still running (the rest is never read).
 */

const MiB = 1024 * 1024;

type Streamed = { status: number; body: string; sentAtAnswer: number; total: number };

/**
 * POSTs `prefix` followed by `total` filler bytes as a chunked upload, writing only as fast as
 * the server reads, and stops writing as soon as the answer arrives.
 */
function streamUntilAnswered(
  path: string,
  options: { headers?: Record<string, string>; prefix: string; total: number; contentLength?: number },
): Promise<Streamed> {
  const url = new URL(path, baseUrl());
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, {
      method: "POST",
      headers: {
        ...options.headers,
        ...(options.contentLength === undefined
          ? { "transfer-encoding": "chunked" }
          : { "content-length": String(options.contentLength) }),
      },
    });
    req.on("response", (res) => {
      answered = true;
      const sentAtAnswer = sent;
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts).toString("utf8"),
          sentAtAnswer,
          total: options.total,
        });
      });
    });
    // Once the server has answered and closed the connection, further writes fail: expected.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < options.total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.write(options.prefix);
    pump();
  });
}

const JSON_HEADERS = { "content-type": "application/json" };
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };

function expectEarly413(res: Streamed) {
  expect(res.status, res.body).toBe(413);
  // Answered long before the upload could finish: the server stopped reading at its cap.
  expect(res.sentAtAnswer).toBeLessThan(res.total / 4);
}

describe("request bodies are read with a byte cap (413 while the upload is still running)", () => {
  let tenant: TestTenant;
  let adminToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Body limits");
    adminToken = await tenant.token(["provision.tag.*", "provision.plan-set.*"]);
  });

  it("an anonymous activation body over 64 KiB is answered 413 before the upload ends (/activations/jwt)", async () => {
    const res = await streamUntilAnswered("/api/v1/provision/activations/jwt", {
      headers: JSON_HEADERS,
      prefix: '{"fingerprint":"',
      total: 64 * MiB,
    });
    expectEarly413(res);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, codeName: "request.payload_too_large" });
  });

  it("many parallel oversized anonymous uploads are all cut short, and the service keeps answering", async () => {
    const uploads = await Promise.all(
      Array.from({ length: 16 }, () =>
        streamUntilAnswered("/api/v1/provision/activations/license", {
          headers: JSON_HEADERS,
          prefix: '{"fingerprint":"',
          total: 32 * MiB,
        }),
      ),
    );
    for (const res of uploads) expectEarly413(res);
    expect((await request("GET", "/api/health")).status).toBe(200);
  });

  it("a declared Content-Length over the cap is answered 413 without reading the body", async () => {
    const res = await streamUntilAnswered("/api/v1/provision/activations/jwt", {
      headers: JSON_HEADERS,
      prefix: '{"fingerprint":"',
      total: 64 * MiB,
      contentLength: 64 * MiB + 16,
    });
    expectEarly413(res);
  });

  it("the token endpoint answers an oversized form 413 before the upload ends (/auth/connect/token)", async () => {
    const res = await streamUntilAnswered("/auth/connect/token", {
      headers: FORM_HEADERS,
      prefix: "grant_type=client_credentials&client_id=",
      total: 64 * MiB,
    });
    expectEarly413(res);
    expect(JSON.parse(res.body)).toMatchObject({ error: "invalid_request" });
  });

  it("an authenticated JSON API body over 1 MiB is answered 413 before the upload ends", async () => {
    const res = await streamUntilAnswered("/api/v1/provision/admin/tags", {
      headers: { ...JSON_HEADERS, authorization: `Bearer ${adminToken}` },
      prefix: '{"scope":"Product","name":"',
      total: 64 * MiB,
    });
    expectEarly413(res);
  });

  it("a route with a documented larger cap (plan sets, 8 MiB) reads a 2 MiB body and judges its content", async () => {
    const res = await request("POST", "/api/v1/provision/admin/usage-plans/plan-sets", {
      token: adminToken,
      body: { suiteId: crypto.randomUUID(), name: "x".repeat(2 * MiB), plans: [] },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.codeName).toBe("license.validation_error");
  });

  it("tRPC answers an oversized anonymous body 413 before the upload ends", async () => {
    const res = await streamUntilAnswered("/api/trpc/tags.create", {
      headers: JSON_HEADERS,
      prefix: '{"name":"',
      total: 64 * MiB,
    });
    expectEarly413(res);
  });

  it("tRPC reads a signed-in user's larger body (up to 8 MiB) instead of refusing it", async () => {
    const { cookie } = await uiSignIn("staff", { email: tenant.adminEmail, password: tenant.adminPassword });
    const res = await fetch(`${baseUrl()}/api/trpc/tags.create`, {
      method: "POST",
      headers: { ...JSON_HEADERS, cookie },
      body: JSON.stringify({ scope: "Product", name: "y".repeat(200 * 1024) }),
    });
    // Read and judged by the procedure's schema (name too long), not cut off by the cap.
    expect(res.status).toBe(400);
  });

  it("next-auth answers an oversized sign-in form 413 before the upload ends", async () => {
    const res = await streamUntilAnswered("/api/auth/callback/staff", {
      headers: FORM_HEADERS,
      prefix: "email=",
      total: 64 * MiB,
    });
    expectEarly413(res);
  });
});
