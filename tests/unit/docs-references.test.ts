import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findDeadReferences, anchorOf } from "../../scripts/docs/doc-references.ts";
import { withReferenceTables } from "../../scripts/docs/reference-tables.ts";
import { regionOf, withIncludes } from "../../scripts/docs/guide-includes.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("documentation that cannot rot", () => {
  it("no README, doc or source comment cites a document, section, file or heading that the repository does not contain", () => {
    expect(findDeadReferences(root)).toEqual([]);
  });

  it("docs/api.md holds the current endpoint, scope, error and event tables (npm run docs:reference)", () => {
    const api = read("docs/api.md");
    expect(withReferenceTables(api)).toBe(api);
    for (const name of ["endpoints", "scopes", "errors", "event-types"])
      expect(api).toContain(`<!-- /generated:${name} -->`);
  });

  it("every guide shows the code that tests/int/guides runs (npm run docs:reference)", () => {
    const guides = path.join(root, "docs/guides");
    const files = readdirSync(guides).filter((f) => f.endsWith(".md"));
    expect(files).toEqual([
      "licensing-an-application.md",
      "metering-from-an-application.md",
      "operating-the-service.md",
      "provisioning-from-a-backend.md",
      "receiving-webhooks.md",
    ]);
    for (const file of files) {
      const text = readFileSync(path.join(guides, file), "utf8");
      expect(withIncludes(text, path.join(guides, file)), file).toBe(text);
    }
  });

  it("the checker finds what it is for", () => {
    expect(anchorOf("Catalog snapshot (export envelope)")).toBe("catalog-snapshot-export-envelope");
    expect(anchorOf("12. Scaling out and running in production")).toBe(
      "12-scaling-out-and-running-in-production",
    );
    expect(regionOf("a\n// #region x\nb\nc\n// #endregion\nd", "x", "f")).toBe("b\nc");
    expect(regionOf("a\n// #region x\nb\n// #endregion", undefined, "f")).toBe("a\nb");
    expect(() => regionOf("a", "missing", "f.ts")).toThrow("f.ts has no region missing");
  });
});
