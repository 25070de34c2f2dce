import type { TItemChange } from "../snapshot/snapshot.schemas.ts";

/**
 * How a field of a matched item compares and merges (docs/api.md: an import never removes anything):
 * - `value`: the file's value replaces the target's;
 * - `set`: the file's members are added to the target's (tags, products of an offer...), members
 *   compared by `key` when given (tag names ignore case);
 * - `map`: the file's entries are set, the target's other entries stay (product properties);
 * - `list`: a list of named entries: the file's entries, then the target's entries the file does
 *   not name, in their order (plans of a plan set, members of a suite).
 */
export type FieldKind = "value" | "set" | "map" | "list";
export type FieldSpec = { kind: FieldKind; key?: (entry: unknown) => string };
export type Comparable = Record<string, unknown>;

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ak.length === bk.length &&
    ak.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The target's value after the import has merged the file's into it. */
export function mergeField(spec: FieldSpec, current: unknown, incoming: unknown): unknown {
  switch (spec.kind) {
    case "value":
      return incoming;
    case "set": {
      const same = spec.key ? (x: unknown, y: unknown) => spec.key!(x) === spec.key!(y) : deepEqual;
      const merged = [...asArray(current)];
      for (const x of asArray(incoming)) if (!merged.some((y) => same(x, y))) merged.push(x);
      return merged;
    }
    case "map":
      return { ...asRecord(current), ...asRecord(incoming) };
    case "list": {
      const key = spec.key ?? ((e: unknown) => JSON.stringify(e));
      const named = new Set(asArray(incoming).map(key));
      return [...asArray(incoming), ...asArray(current).filter((e) => !named.has(key(e)))];
    }
  }
}

/** Whether merging the file's value changes the target's. */
export function fieldDiffers(spec: FieldSpec, current: unknown, incoming: unknown): boolean {
  const merged = mergeField(spec, current, incoming);
  if (spec.kind === "set") return asArray(merged).length !== asArray(current).length;
  return !deepEqual(merged, current);
}

/**
 * docs/api.md `changes`: one entry per compared field, `isDifferent` false where the file restates
 * what the target holds.
 */
export function compareItems(
  fields: Record<string, FieldSpec>,
  current: Comparable,
  incoming: Comparable,
): TItemChange[] {
  return Object.entries(fields).map(([field, spec]) => ({
    field,
    current: current[field] ?? null,
    incoming: incoming[field] ?? null,
    isDifferent: fieldDiffers(spec, current[field] ?? null, incoming[field] ?? null),
  }));
}
