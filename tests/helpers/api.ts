import { systemContext } from "../../server/domain/context.ts";
import { inject, expect } from "vitest";
import { createDb, type Db } from "../../server/db/client.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { TEST_APP_SECRET } from "./test-server.ts";

process.env.APP_SECRET ??= TEST_APP_SECRET;

export const baseUrl = () => inject("baseUrl");

let sharedDb: Db | undefined;
/** A Prisma client on the test database, for arranging data through domain functions. */
export function testDb(): Db {
  sharedDb ??= createDb(inject("databaseUrl"), { max: 5 });
  return sharedDb;
}

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export async function request<T = any>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Calls the token endpoint over HTTP. */
export async function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  return request("POST", "/auth/connect/token", {
    rawBody: new URLSearchParams(form).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

export type TestTenant = Awaited<ReturnType<typeof createTenant>> & {
  /** A token with the given scopes, from a new client registered with exactly those scopes. */
  token: (scopes: string[] | string) => Promise<string>;
};

/** A fresh tenant per test file keeps files independent while they share one server. */
export async function createTestTenant(name = "Test Vendor"): Promise<TestTenant> {
  const tenant = await createTenant(testDb(), { name: `${name} ${Math.random().toString(36).slice(2, 8)}` });
  return {
    ...tenant,
    token: async (scopes) => {
      const list = typeof scopes === "string" ? scopes.split(" ") : scopes;
      const kind = list.every((s) => s === "webhooks.integrator") ? "integrator" : "admin";
      const { client, clientSecret } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
        name: "test",
        kind,
        scopes: list,
      });
      const res = await tokenRequest({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: clientSecret,
        scope: list.join(" "),
      });
      expect(res.status, res.text).toBe(200);
      return res.body.access_token as string;
    },
  };
}

/** Asserts a problem+json answer with docs/api.md's fields and the expected codeName. */
export function expectProblem(res: ApiResponse, status: number, codeName: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    status,
    codeName,
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
    instance: expect.any(String),
  });
  expect(typeof res.body.code).toBe("number");
}
