import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, type TestTenant } from "../../helpers/api.ts";
import { ADD_ONS, ok } from "../../helpers/entitlements.ts";
import { exportCatalog, importOk, seedDemoCatalog } from "./portability-fixtures.ts";

/**
 * Issue 21 item 9: the catalog snapshot follows docs/api.md's field names. Feature catalog entries and
 * add-ons carry `referencedBy: null` (docs/api.md: null where not computed, such as in a catalog
 * export), and add-ons carry `features` (the catalog entries they grant, as the add-on API answers
 * them) instead of `featureCatalogIds`. Files written before still import.
 */

const SCOPES = ["provision.catalog.*", "provision.add-on.*"];
const codesOf = (features: { featureCode: string | null }[]) => features.map((f) => f.featureCode).sort();

// Many requests per test: a loaded machine outruns the default 30 s.
describe("catalog export item shape", { timeout: 180_000 }, () => {
  let source: TestTenant;
  let token: string;
  let snapshot: any;

  beforeAll(async () => {
    source = await createTestTenant("Shape source");
    await seedDemoCatalog(source);
    token = await source.token(SCOPES);
    snapshot = await exportCatalog(token, { addOns: { mode: "All" }, featureCatalog: { mode: "All" } });
  });

  it("add-ons carry features (entries with id, code, name, type, units), no featureCatalogIds, and referencedBy null", async () => {
    const [addOn] = snapshot.sections.addOns;
    expect(addOn.code).toBe("POWER-PACK");
    expect(Object.keys(addOn)).not.toContain("featureCatalogIds");
    expect(addOn.referencedBy).toBeNull();
    expect(Object.keys(addOn)).toContain("referencedBy");
    const source = ok(await request("GET", `${ADD_ONS}?filters=code==POWER-PACK`, { token })).items[0];
    expect(addOn.features).toEqual(
      source.features.map((f: Record<string, unknown>) => ({
        featureCatalogId: f.featureCatalogId,
        featureCode: f.featureCode,
        name: f.name,
        featureType: f.featureType,
        units: f.units,
      })),
    );
    expect(codesOf(addOn.features)).toContain("SSO");
    for (const f of addOn.features)
      expect(snapshot.references[f.featureCatalogId].kind).toBe("FeatureCatalogEntry");
  });

  it("feature catalog entries carry referencedBy null", () => {
    expect(snapshot.sections.featureCatalog.length).toBeGreaterThan(0);
    for (const entry of snapshot.sections.featureCatalog) {
      expect(Object.keys(entry)).toContain("referencedBy");
      expect(entry.referencedBy).toBeNull();
    }
  });

  it("the exported file imports with the add-on's features granted; a file in the older shape (featureCatalogIds) still imports", async () => {
    const full = await exportCatalog(token, {
      addOns: { mode: "All" },
      featureCatalog: { mode: "All" },
      includeDependencies: true,
    });
    const expected = codesOf(full.sections.addOns[0].features);
    for (const shape of ["current", "older"] as const) {
      const target = await createTestTenant(`Shape target ${shape}`);
      const targetToken = await target.token(SCOPES);
      const file = structuredClone(full);
      if (shape === "older") {
        for (const a of file.sections.addOns) {
          a.featureCatalogIds = a.features.map((f: { featureCatalogId: string }) => f.featureCatalogId);
          delete a.features;
          delete a.referencedBy;
        }
        for (const e of file.sections.featureCatalog) delete e.referencedBy;
      }
      await importOk(targetToken, file);
      const imported = ok(
        await request("GET", `${ADD_ONS}?filters=code==POWER-PACK`, { token: targetToken }),
      );
      expect(codesOf(imported.items[0].features), shape).toEqual(expected);
    }
  });
});
