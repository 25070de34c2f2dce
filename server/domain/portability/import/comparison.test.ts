import { describe, expect, it } from "vitest";
import { compareItems, fieldDiffers, mergeField } from "./comparison.ts";

describe("an import merges a matched record's fields and never removes anything", () => {
  it("a value field takes the file's value", () => {
    expect(mergeField({ kind: "value" }, "old", "new")).toBe("new");
    expect(fieldDiffers({ kind: "value" }, { a: [1, 2] }, { a: [1, 2] })).toBe(false);
  });

  it("a set adds the file's members and keeps the target's others (with a key, case-insensitively)", () => {
    const spec = { kind: "set" as const, key: (v: unknown) => String(v).toLowerCase() };
    expect(mergeField(spec, ["Desktop", "Beta"], ["desktop", "Server"])).toEqual([
      "Desktop",
      "Beta",
      "Server",
    ]);
    expect(fieldDiffers(spec, ["Desktop", "Beta"], ["DESKTOP"])).toBe(false);
    expect(fieldDiffers(spec, ["Desktop"], ["Desktop", "Server"])).toBe(true);
  });

  it("a map sets the file's entries and keeps the target's other entries", () => {
    expect(mergeField({ kind: "map" }, { a: 1, b: 2 }, { b: 3, c: 4 })).toEqual({ a: 1, b: 3, c: 4 });
    expect(fieldDiffers({ kind: "map" }, { a: 1, b: 2 }, { b: 2 })).toBe(false);
  });

  it("a list puts the file's named entries first, then the target's entries the file does not name", () => {
    const spec = { kind: "list" as const, key: (p: unknown) => (p as { name: string }).name };
    const merged = mergeField(
      spec,
      [
        { name: "Basic", price: 1 },
        { name: "Legacy", price: 0 },
      ],
      [{ name: "Basic", price: 2 }],
    );
    expect(merged).toEqual([
      { name: "Basic", price: 2 },
      { name: "Legacy", price: 0 },
    ]);
    expect(
      fieldDiffers(
        spec,
        [
          { name: "Basic", price: 2 },
          { name: "Legacy", price: 0 },
        ],
        [{ name: "Basic", price: 2 }],
      ),
    ).toBe(false);
  });

  it("changes list every compared field; isDifferent is false where the file restates the target's value", () => {
    const changes = compareItems(
      { name: { kind: "value" }, tags: { kind: "set" } },
      { name: "Studio", tags: ["a", "b"] },
      { name: "Studio Pro", tags: ["a"] },
    );
    expect(changes).toEqual([
      { field: "name", current: "Studio", incoming: "Studio Pro", isDifferent: true },
      { field: "tags", current: ["a", "b"], incoming: ["a"], isDifferent: false },
    ]);
  });
});
