import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, testDb } from "../../helpers/api.ts";
import { importCatalog, importOk, sectionOf } from "./portability-fixtures.ts";

/**
 * Issue 21 item 12: one catalog import held its tenant's transaction for up to 240 s over REST
 * (64 MiB bodies) and 900 s over the back office's stream. It is bounded (docs/decisions.md
 * "Catalog import limits"): at most 5,000 items to apply per import, refused with 413
 * catalog.import_too_large before any transaction starts; 120 s in the transaction; 16 MiB bodies.
 */

const tagsFile = (count: number) => ({
  formatVersion: "1.0.0",
  scope: ["tags"],
  sections: {
    tags: Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      scope: "Product",
      name: `Limit tag ${i}`,
      color: "#2563eb",
    })),
  },
});

// Many requests per test: a loaded machine outruns the default 30 s.
describe("long catalog imports are bounded", { timeout: 180_000 }, () => {
  it("a file of 5,001 items to apply is refused 413 catalog.import_too_large before anything runs; nothing changes", async () => {
    const tenant = await createTestTenant("Import limit");
    const token = await tenant.token("provision.catalog.*");
    const started = Date.now();
    const res = await importCatalog(token, tagsFile(5_001));
    expectProblem(res, 413, "catalog.import_too_large");
    expect(res.body.code).toBe(3703);
    expect(res.body.detail).toContain("would apply 5001 items; one import applies at most 5000");
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await testDb().tag.count({ where: { tenantId: tenant.tenantId } })).toBe(0);
  });

  it("the same file in parts with selective apply: each part within the limit is imported", async () => {
    const tenant = await createTestTenant("Import limit parts");
    const token = await tenant.token("provision.catalog.*");
    const file = { ...tagsFile(5_001), apply: { tags: ["Product:Limit tag 0", "Product:Limit tag 5000"] } };
    const result = await importOk(token, file);
    expect(sectionOf(result, "tags").created).toBe(2);
    expect(await testDb().tag.count({ where: { tenantId: tenant.tenantId } })).toBe(2);
  });
});
