import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { readRecordTags, setRecordTags } from "../../../server/domain/catalog/tags/record-tags.ts";

const TAGS = "/api/v1/provision/admin/tags";

describe("tags", () => {
  let tenant: TestTenant;
  let token: string;
  const create = (body: unknown) => request("POST", TAGS, { token, body });

  beforeAll(async () => {
    tenant = await createTestTenant("Tags");
    token = await tenant.token("provision.tag.*");
  });

  it("creates a tag (201) and reads it back with count, flags, timestamps and revision", async () => {
    const res = await create({ scope: "Product", name: "Enterprise", color: "#AABBCC" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      scope: "Product",
      name: "Enterprise",
      color: "#aabbcc",
      usageCount: 0,
      isDeleted: false,
      revisionNumber: 1,
    });
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    const read = await request("GET", `${TAGS}/${res.body.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("names are unique case-insensitively within a tenant and scope (409 tag.name_taken)", async () => {
    expect((await create({ scope: "Product", name: "Beta" })).status).toBe(201);
    expectProblem(await create({ scope: "Product", name: "BETA" }), 409, "tag.name_taken");
    expect((await create({ scope: "FeatureCatalog", name: "beta" })).status).toBe(201);
    const other = await createTestTenant("Other");
    const otherToken = await other.token("provision.tag.*");
    expect(
      (await request("POST", TAGS, { token: otherToken, body: { scope: "Product", name: "Beta" } })).status,
    ).toBe(201);
  });

  it("validates colour (#rrggbb), scope and name (400 license.validation_error, nothing created)", async () => {
    for (const body of [
      { scope: "Product", name: "c1", color: "red" },
      { scope: "Product", name: "c2", color: "#abc" },
      { scope: "Product", name: "c3", color: "#gg0000" },
      { scope: "Nope", name: "c4" },
      { scope: "Product", name: "   " },
      { scope: "Product" },
    ]) {
      const res = await create(body);
      expectProblem(res, 400, "license.validation_error");
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    const list = await request("GET", `${TAGS}?filter=name_=c`, { token });
    expect(list.body.items.filter((t: { name: string }) => /^c\d$/.test(t.name))).toEqual([]);
    const invalidJson = await request("POST", TAGS, {
      token,
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expectProblem(invalidJson, 400, "license.validation_error");
  });

  it("PATCH is a merge: absent and null leave fields, clearColor clears the colour", async () => {
    const tag = (await create({ scope: "Product", name: "Merge-patch", color: "#112233" })).body;
    const renamed = await request("PATCH", `${TAGS}/${tag.id}`, {
      token,
      body: { name: "Merge patch", color: null },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Merge patch", color: "#112233", revisionNumber: 2 });
    const cleared = await request("PATCH", `${TAGS}/${tag.id}`, { token, body: { clearColor: true } });
    expect(cleared.body).toMatchObject({ name: "Merge patch", color: null, revisionNumber: 3 });
  });

  it("optimistic concurrency: a stale revisionNumber answers 409 and changes nothing", async () => {
    const tag = (await create({ scope: "Product", name: "Concurrent" })).body;
    expect(
      (await request("PATCH", `${TAGS}/${tag.id}`, { token, body: { color: "#000001", revisionNumber: 1 } }))
        .status,
    ).toBe(200);
    const stale = await request("PATCH", `${TAGS}/${tag.id}`, {
      token,
      body: { color: "#000002", revisionNumber: 1 },
    });
    expectProblem(stale, 409, "concurrency.revision_mismatch");
    const now = await request("GET", `${TAGS}/${tag.id}`, { token });
    expect(now.body).toMatchObject({ color: "#000001", revisionNumber: 2 });
  });

  it("renaming onto another live tag's name is refused (409)", async () => {
    await create({ scope: "Product", name: "Taken-name" });
    const tag = (await create({ scope: "Product", name: "Free-name" })).body;
    expectProblem(
      await request("PATCH", `${TAGS}/${tag.id}`, { token, body: { name: "taken-NAME" } }),
      409,
      "tag.name_taken",
    );
  });

  it("DELETE soft-deletes: 204, hidden from the list, readable with isDeleted, name reusable, second delete 404", async () => {
    const tag = (await create({ scope: "Product", name: "Doomed" })).body;
    const del = await request("DELETE", `${TAGS}/${tag.id}`, { token });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const list = await request("GET", `${TAGS}?filter=name==Doomed`, { token });
    expect(list.body.totalCount).toBe(0);
    const withDeleted = await request("GET", `${TAGS}?filter=name==Doomed&includeDeleted=true`, { token });
    expect(withDeleted.body.items[0]).toMatchObject({ id: tag.id, isDeleted: true });
    expect((await request("GET", `${TAGS}/${tag.id}`, { token })).body.isDeleted).toBe(true);
    expect((await create({ scope: "Product", name: "Doomed" })).status).toBe(201);
    expectProblem(await request("DELETE", `${TAGS}/${tag.id}`, { token }), 404, "license.not_found");
    expectProblem(
      await request("PATCH", `${TAGS}/${tag.id}`, { token, body: { name: "x" } }),
      404,
      "license.not_found",
    );
  });

  it("tag merge: every record carrying the source gains the kept tag; duplicates collapse; the source is deleted", async () => {
    const source = (await create({ scope: "Product", name: "Merge-source" })).body;
    const kept = (await create({ scope: "Product", name: "Merge-kept" })).body;
    const scoped = tenantDb(testDb(), tenant.tenantId);
    const [r1, r2, r3] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await setRecordTags(scoped, tenant.tenantId, "Product", r1, ["Merge-source"]);
    await setRecordTags(scoped, tenant.tenantId, "Product", r2, ["Merge-source", "Merge-kept"]);
    await setRecordTags(scoped, tenant.tenantId, "Product", r3, ["Merge-kept"]);
    expect((await request("GET", `${TAGS}/${source.id}`, { token })).body.usageCount).toBe(2);

    const merged = await request("POST", `${TAGS}/${source.id}/merge`, {
      token,
      body: { intoTagId: kept.id },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: kept.id, usageCount: 3 });
    expect((await request("GET", `${TAGS}/${source.id}`, { token })).body.isDeleted).toBe(true);
    const tags = await readRecordTags(scoped, [r1, r2, r3]);
    expect(tags.get(r1)).toEqual(["Merge-kept"]);
    expect(tags.get(r2)).toEqual(["Merge-kept"]);
    expect(tags.get(r3)).toEqual(["Merge-kept"]);
  });

  it("tag merge refuses another scope (400), itself (400), unknown or deleted tags (404)", async () => {
    const product = (await create({ scope: "Product", name: "Scope-a" })).body;
    const feature = (await create({ scope: "FeatureCatalog", name: "Scope-b" })).body;
    expectProblem(
      await request("POST", `${TAGS}/${product.id}/merge`, { token, body: { intoTagId: feature.id } }),
      400,
      "tag.scope_mismatch",
    );
    expectProblem(
      await request("POST", `${TAGS}/${product.id}/merge`, { token, body: { intoTagId: product.id } }),
      400,
      "tag.merge_into_self",
    );
    expectProblem(
      await request("POST", `${TAGS}/${product.id}/merge`, {
        token,
        body: { intoTagId: crypto.randomUUID() },
      }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${TAGS}/${product.id}/merge`, { token, body: {} }),
      400,
      "license.validation_error",
    );
    expect((await request("GET", `${TAGS}/${product.id}`, { token })).body.isDeleted).toBe(false);
  });

  it("tags on records: null leaves unchanged, [] clears, a list replaces, unknown names are created", async () => {
    const scoped = tenantDb(testDb(), tenant.tenantId);
    const record = crypto.randomUUID();
    await setRecordTags(scoped, tenant.tenantId, "Product", record, ["Alpha-rt", "beta-rt", "ALPHA-RT"]);
    expect((await readRecordTags(scoped, [record])).get(record)).toEqual(["Alpha-rt", "beta-rt"]);
    const created = await request("GET", `${TAGS}?filter=name==beta-rt`, { token });
    expect(created.body.items[0]).toMatchObject({ scope: "Product", usageCount: 1 });
    await setRecordTags(scoped, tenant.tenantId, "Product", record, null);
    expect((await readRecordTags(scoped, [record])).get(record)).toEqual(["Alpha-rt", "beta-rt"]);
    await setRecordTags(scoped, tenant.tenantId, "Product", record, ["BETA-RT", "Gamma-rt"]);
    expect((await readRecordTags(scoped, [record])).get(record)).toEqual(["beta-rt", "Gamma-rt"]);
    await setRecordTags(scoped, tenant.tenantId, "Product", record, []);
    expect((await readRecordTags(scoped, [record])).get(record)).toEqual([]);
  });

  it("another tenant's tag answers 404 on every route, exactly like an unknown id", async () => {
    const tag = (await create({ scope: "Product", name: "Private" })).body;
    const other = await createTestTenant("Intruder");
    const otherToken = await other.token("provision.tag.*");
    const mine = (
      await request("POST", TAGS, { token: otherToken, body: { scope: "Product", name: "Mine" } })
    ).body;
    expectProblem(await request("GET", `${TAGS}/${tag.id}`, { token: otherToken }), 404, "license.not_found");
    expectProblem(
      await request("PATCH", `${TAGS}/${tag.id}`, { token: otherToken, body: { name: "stolen" } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("DELETE", `${TAGS}/${tag.id}`, { token: otherToken }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${TAGS}/${tag.id}/merge`, { token: otherToken, body: { intoTagId: mine.id } }),
      404,
      "license.not_found",
    );
    expectProblem(
      await request("POST", `${TAGS}/${mine.id}/merge`, { token: otherToken, body: { intoTagId: tag.id } }),
      404,
      "license.not_found",
    );
    const list = await request("GET", TAGS, { token: otherToken });
    expect(list.body.items.map((t: { id: string }) => t.id)).not.toContain(tag.id);
    expect((await request("GET", `${TAGS}/${tag.id}`, { token })).body).toMatchObject({
      name: "Private",
      isDeleted: false,
    });
  });

  it("a path id that is not a UUID is simply not found (404)", async () => {
    expectProblem(await request("GET", `${TAGS}/not-a-uuid`, { token }), 404, "license.not_found");
  });

  it("echoes X-Correlation-Id, and mints one when absent, on success and on problems", async () => {
    const res = await request("GET", TAGS, { token, headers: { "x-correlation-id": "corr-123" } });
    expect(res.headers.get("x-correlation-id")).toBe("corr-123");
    const problem = await request("GET", `${TAGS}/${crypto.randomUUID()}`, {
      token,
      headers: { "x-correlation-id": "corr-456" },
    });
    expect(problem.headers.get("x-correlation-id")).toBe("corr-456");
    expect(problem.body.correlationId).toBe("corr-456");
    const minted = await request("GET", TAGS, { token });
    expect(minted.headers.get("x-correlation-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
