import { z } from "zod";
import { AppError, validationError } from "../../../core/errors.ts";
import { zodIssues } from "../../../core/zod-issues.ts";
import { kindOfSection, sectionNames, type SectionName } from "./sections.ts";
import { portableItemSchemas, type PortableItems } from "./snapshot-items.schemas.ts";
import {
  ZReference,
  type TCatalogImportBody,
  type TNaturalKey,
  type TReference,
} from "./snapshot.schemas.ts";
import { itemNaturalKeys } from "./item-natural-keys.ts";
import { businessKey } from "./natural-keys.ts";

export type ParsedItem<S extends SectionName> = {
  position: number;
  sourceId: string | null;
  /** null when the item does not read as a portable item of its section (`problem` says why). */
  item: PortableItems[S] | null;
  problem: string | null;
  naturalKey: TNaturalKey;
  key: string;
};

export type SnapshotFile = {
  formatVersion: string;
  references: Map<string, TReference>;
  /** Sections to process, in dependency order: those of the file's scope and those with items. */
  sections: SectionName[];
  items: { [S in SectionName]: ParsedItem<S>[] };
  itemKeys: Map<string, { section: SectionName; naturalKey: TNaturalKey }>;
  /** Selective apply: business keys to apply per section; null applies everything. */
  apply: Map<SectionName, Set<string>> | null;
  total: number;
};

const ZLooseId = z.string().uuid();

/**
 * Reads an import body (whose formatVersion has been checked): the references map, each section's
 * items one by one (an item that does not read is kept with its problem, to be reported as
 * skipped), their natural and business keys, and the selective-apply map, every key of which
 * must name an item of the file (400 `catalog.unknown_apply_keys` otherwise: a mistyped key would
 * silently apply nothing).
 */
export function readSnapshotFile(body: TCatalogImportBody): SnapshotFile {
  const references = new Map<string, TReference>();
  for (const [id, raw] of Object.entries(body.references ?? {})) {
    const parsed = ZReference.safeParse(raw);
    if (parsed.success) references.set(id.toLowerCase(), parsed.data);
  }
  const rawSections = body.sections ?? {};
  const unknownSections = Object.keys(rawSections).filter(
    (s) => !(sectionNames as readonly string[]).includes(s),
  );
  if (unknownSections.length)
    throw validationError(
      `Unknown section(s) ${unknownSections.join(", ")}; sections are ${sectionNames.join(", ")}.`,
      unknownSections.map((s) => ({ path: `sections.${s}`, message: "Unknown section." })),
    );
  const itemKeys = new Map<string, { section: SectionName; naturalKey: TNaturalKey }>();
  const keyOf = (id: string | null | undefined) =>
    id ? (itemKeys.get(id)?.naturalKey ?? references.get(id)?.naturalKey ?? null) : null;
  const items = {} as SnapshotFile["items"];
  let total = 0;
  for (const section of sectionNames) {
    const raw = rawSections[section] ?? [];
    if (!Array.isArray(raw))
      throw validationError(`sections.${section} must be an array of items.`, [
        { path: `sections.${section}`, message: "Not an array." },
      ]);
    items[section] = raw.map((value, position) => readItem(section, value, position, keyOf)) as never;
    for (const parsed of items[section] as ParsedItem<SectionName>[]) {
      if (parsed.sourceId && parsed.item && !itemKeys.has(parsed.sourceId))
        itemKeys.set(parsed.sourceId, { section, naturalKey: parsed.naturalKey });
    }
    total += raw.length;
  }
  const scope = new Set((body.scope ?? []).filter((s) => (sectionNames as readonly string[]).includes(s)));
  const sections = sectionNames.filter((s) => scope.has(s) || items[s].length > 0);

  let apply: SnapshotFile["apply"] = null;
  if (body.apply) {
    apply = new Map();
    const unknown: { path: string; message: string }[] = [];
    for (const section of sectionNames) {
      const keys = body.apply[section];
      if (!keys) continue;
      const known = new Set((items[section] as ParsedItem<SectionName>[]).map((i) => i.key));
      for (const key of keys)
        if (!known.has(key))
          unknown.push({ path: `apply.${section}`, message: `No ${section} item has the key "${key}".` });
      apply.set(section, new Set(keys));
    }
    if (unknown.length)
      throw new AppError(
        "catalog.unknown_apply_keys",
        `${unknown.length} selective-apply key(s) name no item of the file: ${unknown
          .slice(0, 5)
          .map((u) => u.message)
          .join(" ")}`,
        { issues: unknown },
      );
  }
  return { formatVersion: body.formatVersion, references, sections, items, itemKeys, apply, total };
}

function readItem<S extends SectionName>(
  section: S,
  value: unknown,
  position: number,
  keyOf: (id: string | null | undefined) => TNaturalKey | null,
): ParsedItem<S> {
  const rawId = (value as { id?: unknown } | null)?.id;
  const sourceId = ZLooseId.safeParse(rawId).success ? (rawId as string).toLowerCase() : null;
  const parsed = portableItemSchemas[section].safeParse(value);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error, "");
    const guess = value && typeof value === "object" ? (value as Record<string, unknown>) : {};
    const label = [guess.productCode, guess.featureCode, guess.code, guess.name, guess.metricName].find(
      (v) => typeof v === "string",
    );
    return {
      position,
      sourceId,
      item: null,
      problem: `Invalid item: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
      naturalKey: {},
      key: typeof label === "string" ? label : `#${position + 1}`,
    };
  }
  const item = parsed.data as PortableItems[S];
  const naturalKey = itemNaturalKeys[section](item, keyOf);
  return {
    position,
    sourceId,
    item,
    problem: null,
    naturalKey,
    key: businessKey(kindOfSection[section], naturalKey),
  };
}
