import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";

const TAGS = "/api/v1/provision/admin/tags";

describe("Idempotency-Key", () => {
  let tenant: TestTenant;
  let token: string;
  beforeAll(async () => {
    tenant = await createTestTenant("Idempotency");
    token = await tenant.token("provision.tag.*");
  });

  it("replays the stored response for the same key and request, without a second effect", async () => {
    const key = `key-${crypto.randomUUID()}`;
    const first = await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Once" },
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(201);
    const again = await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Once" },
      headers: { "idempotency-key": key },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const list = await request("GET", `${TAGS}?filter=name==Once`, { token });
    expect(list.body.totalCount).toBe(1);
  });

  it("the same key with a different request answers 409 idempotency.key_reused and changes nothing", async () => {
    const key = `key-${crypto.randomUUID()}`;
    expect(
      (
        await request("POST", TAGS, {
          token,
          body: { scope: "Product", name: "Reuse-1" },
          headers: { "idempotency-key": key },
        })
      ).status,
    ).toBe(201);
    const reused = await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Reuse-2" },
      headers: { "idempotency-key": key },
    });
    expectProblem(reused, 409, "idempotency.key_reused");
    expect((await request("GET", `${TAGS}?filter=name==Reuse-2`, { token })).body.totalCount).toBe(0);
  });

  it("parallel identical requests with one key have exactly one effect and one answer", async () => {
    const key = `key-${crypto.randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        request("POST", TAGS, {
          token,
          body: { scope: "Product", name: "Parallel" },
          headers: { "idempotency-key": key },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await request("GET", `${TAGS}?filter=name==Parallel`, { token })).body.totalCount).toBe(1);
  });

  it("keys are per credential: another client's same key is a new request", async () => {
    const key = `key-${crypto.randomUUID()}`;
    const other = await tenant.token("provision.tag.*");
    const a = await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Cred-a" },
      headers: { "idempotency-key": key },
    });
    const b = await request("POST", TAGS, {
      token: other,
      body: { scope: "Product", name: "Cred-b" },
      headers: { "idempotency-key": key },
    });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it("a refused request stores nothing: the corrected retry with the same key succeeds", async () => {
    const key = `key-${crypto.randomUUID()}`;
    const bad = await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Fixme", color: "blue" },
      headers: { "idempotency-key": key },
    });
    expectProblem(bad, 400, "license.validation_error");
    const good = await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Fixme", color: "#0000ff" },
      headers: { "idempotency-key": key },
    });
    expect(good.status).toBe(201);
  });

  it("a key longer than 200 characters is refused (400)", async () => {
    expectProblem(
      await request("POST", TAGS, {
        token,
        body: { scope: "Product", name: "Long-key" },
        headers: { "idempotency-key": "k".repeat(201) },
      }),
      400,
      "license.validation_error",
    );
    expect(
      (
        await request("POST", TAGS, {
          token,
          body: { scope: "Product", name: "Max-key" },
          headers: { "idempotency-key": "k".repeat(200) },
        })
      ).status,
    ).toBe(201);
  });

  it("records are kept 24 hours", async () => {
    const key = `key-${crypto.randomUUID()}`;
    await request("POST", TAGS, {
      token,
      body: { scope: "Product", name: "Ttl" },
      headers: { "idempotency-key": key },
    });
    const record = await testDb().idempotencyRecord.findFirstOrThrow({
      where: { tenantId: tenant.tenantId, key },
    });
    const hours = (record.expiresAt.getTime() - record.createdAt.getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(24, 1);
  });
});
