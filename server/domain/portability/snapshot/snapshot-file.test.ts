import { describe, expect, it } from "vitest";
import { readSnapshotFile } from "./snapshot-file.ts";
import { ZCatalogImportBody } from "./snapshot.schemas.ts";
import { AppError } from "../../../core/errors.ts";

const id = () => crypto.randomUUID();
const product = (code: string, version = "1.0") => ({
  id: id(),
  productCode: code,
  productVersion: version,
  name: code,
});
const body = (value: Record<string, unknown>) =>
  ZCatalogImportBody.parse({ formatVersion: "1.0.0", ...value });

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof AppError ? error.codeName : String(error);
  }
};

describe("reading an import file", () => {
  it("processes the scope's sections and those with items, in dependency order", () => {
    const file = readSnapshotFile(
      body({ scope: ["ratingCampaigns", "tags"], sections: { products: [product("A")], tags: [] } }),
    );
    expect(file.sections).toEqual(["tags", "products", "ratingCampaigns"]);
    expect(file.total).toBe(1);
  });

  it("keeps an item that does not read, with its problem, instead of refusing the file", () => {
    const file = readSnapshotFile(
      body({ sections: { products: [{ id: id(), name: "No code" }, product("B")] } }),
    );
    expect(file.items.products[0]).toMatchObject({
      item: null,
      problem: expect.stringMatching(/^Invalid item: productCode/),
    });
    expect(file.items.products[1]).toMatchObject({ key: "B@1.0", problem: null });
  });

  it("refuses sections it does not know, and sections that are not arrays", () => {
    expect(codeOf(() => readSnapshotFile(body({ sections: { entitlements: [] } })))).toBe(
      "license.validation_error",
    );
    expect(codeOf(() => readSnapshotFile(body({ sections: { products: { A: {} } } })))).toBe(
      "license.validation_error",
    );
  });

  it("selective apply: every key must name an item of its section, else catalog.unknown_apply_keys", () => {
    const sections = { products: [product("A"), product("B", "")] };
    expect(
      readSnapshotFile(body({ sections, apply: { products: ["A@1.0", "B"] } })).apply?.get("products"),
    ).toEqual(new Set(["A@1.0", "B"]));
    expect(codeOf(() => readSnapshotFile(body({ sections, apply: { products: ["A@2.0"] } })))).toBe(
      "catalog.unknown_apply_keys",
    );
    expect(codeOf(() => readSnapshotFile(body({ sections, apply: { addOns: ["A@1.0"] } })))).toBe(
      "catalog.unknown_apply_keys",
    );
    expect(readSnapshotFile(body({ sections })).apply).toBeNull();
  });
});
