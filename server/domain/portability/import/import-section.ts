import type { DomainContext } from "../../context.ts";
import { kindOfSection, type ReferenceKind, type SectionName } from "../snapshot/sections.ts";
import { sectionExporters } from "../export/section-exporters.ts";
import { readAll, type SectionExporter } from "../export/section-exporter.ts";
import { compareItems, type Comparable, type FieldSpec } from "./comparison.ts";
import { inSavepoint, type ImportRun, type ItemResult } from "./import-run.ts";
import { matchKey } from "../snapshot/natural-keys.ts";
import type { TargetRecord } from "./target-index.ts";
import type { ParsedItem } from "../snapshot/snapshot-file.ts";
import type { PortableItems } from "../snapshot/snapshot-items.schemas.ts";
import type { TItemChange } from "../snapshot/snapshot.schemas.ts";

type KeyOf = (id: string | null | undefined) => string | null;

/**
 * What an import step reports: notes become the item's reason (applied with a warning or
 * partially); `after` runs once the item is recorded (work for a later phase that reports on it).
 */
export type Applied = { notes: string[]; after?: (item: ItemResult) => void; nothingApplied?: boolean };
export type Created = Applied & { id: string };

/**
 * How one section is imported. The generic part (matching by natural key, conflict mode,
 * selective apply, comparison, savepoints, results) is `importSection`; a section says how its
 * items compare, and how one is created or merged into its match through the domain functions.
 */
export type SectionImporter<S extends SectionName> = {
  section: S;
  /** Kinds a comparison names records of (loaded before comparing). */
  refKinds: readonly ReferenceKind[];
  /** The compared fields and how each merges (comparison.ts). */
  fields: Record<string, FieldSpec>;
  comparable(item: PortableItems[S], keyOf: KeyOf): Comparable;
  /** Processing order of the file's items (default: file order). */
  order?(items: ParsedItem<S>[]): ParsedItem<S>[];
  /** The target record an item matches (default: the first with its natural key). */
  match?(run: ImportRun, item: ParsedItem<S>): Promise<TargetRecord | null>;
  /** A matched item the section never updates: the reason it is skipped. */
  keepsMatch?: (run: ImportRun, targetId: string) => string | null;
  create(run: ImportRun, ctx: DomainContext, item: PortableItems[S]): Promise<Created>;
  update(
    run: ImportRun,
    ctx: DomainContext,
    item: PortableItems[S],
    target: { id: string; current: PortableItems[S]; changes: TItemChange[] },
  ): Promise<Applied & { id?: string }>;
};

const reasonText = (notes: readonly string[]) => (notes.length ? notes.join(" ") : null);

/** Sets an item's reason from its notes (called again when a later phase adds notes). */
export function settleReason(item: ItemResult) {
  item.reason = reasonText(item.notes) ?? item.reason;
}

/**
 * Imports one section: each item is matched by natural key in the target, then created, updated
 * or skipped per the conflict mode and selective apply, each write in its own savepoint so a
 * refused item is skipped with the domain's reason while the rest goes on. Matched items are
 * compared field by field; one whose merge would change nothing is skipped as unchanged.
 */
export async function importSection<S extends SectionName>(run: ImportRun, importer: SectionImporter<S>) {
  const { section } = importer;
  const kind = kindOfSection[section];
  run.section(section);
  const parsed = run.file.items[section] as ParsedItem<S>[];
  const ordered = importer.order ? importer.order(parsed) : parsed;
  const applyKeys = run.file.apply ? (run.file.apply.get(section) ?? new Set<string>()) : null;

  // Match first, then read every matched target record in one batch for the comparison.
  const matches = new Map<ParsedItem<S>, TargetRecord>();
  const firstOfKey = new Map<string, ParsedItem<S>>();
  const duplicates = new Map<ParsedItem<S>, ParsedItem<S>>();
  for (const entry of ordered) {
    if (!entry.item) continue;
    if (section !== "plans") {
      const key = matchKey(kind, entry.naturalKey);
      const first = firstOfKey.get(key);
      if (first) {
        duplicates.set(entry, first);
        continue;
      }
      firstOfKey.set(key, entry);
    }
    const match = importer.match
      ? await importer.match(run, entry)
      : ((await run.index.find(kind, entry.naturalKey))[0] ?? null);
    if (match) matches.set(entry, match);
  }
  const currents = await readAll(
    sectionExporters[section] as SectionExporter<S>,
    run.db,
    [...matches.values()].map((m) => m.id),
  );
  await run.index.preload(importer.refKinds);

  let done = 0;
  for (const entry of ordered) {
    run.tick(section, ++done, ordered.length);
    const base = { key: entry.key, sourceId: entry.sourceId };
    if (!entry.item) {
      settleReason(
        run.record(section, { ...base, action: "Skipped", notes: [entry.problem ?? "Invalid item."] }),
      );
      continue;
    }
    const duplicateOf = duplicates.get(entry);
    if (duplicateOf) {
      const mapped = duplicateOf.sourceId ? run.idMap.get(duplicateOf.sourceId) : undefined;
      if (mapped && entry.sourceId) run.idMap.set(entry.sourceId, mapped);
      settleReason(
        run.record(section, {
          ...base,
          action: "Skipped",
          notes: [
            `Another ${section} item of the file (#${duplicateOf.position + 1}) has the same natural key.`,
          ],
        }),
      );
      continue;
    }
    const selected = !applyKeys || applyKeys.has(entry.key);
    const match = matches.get(entry);
    if (match) {
      await run.map(section, entry.sourceId, match, false);
      const current = currents.get(match.id)?.item as PortableItems[S] | undefined;
      const changes = current
        ? compareItems(
            importer.fields,
            importer.comparable(current, run.targetKeyOf),
            importer.comparable(entry.item, run.sourceKeyOf),
          )
        : [];
      const skip = (note: string) =>
        run.record(section, { ...base, action: "Skipped", notes: [note], changes });
      const kept = importer.keepsMatch?.(run, match.id);
      if (!selected) skip("Not selected for apply; the target's record is kept as it is.");
      else if (run.options.conflictMode === "CreateOnly")
        skip("Exists in the target; CreateOnly creates missing records only.");
      else if (!current) skip("The target's record cannot be read for an update.");
      else if (!changes.some((c) => c.isDifferent))
        skip("Unchanged: the target already holds the file's values.");
      else if (kept) skip(kept);
      else {
        const outcome = await inSavepoint(run.ctx, (ctx) =>
          importer.update(run, ctx, entry.item!, { id: match.id, current, changes }),
        );
        if (outcome.ok && outcome.value.nothingApplied)
          skip(outcome.value.notes.join(" ") || "Nothing the import may change differs.");
        else if (outcome.ok) {
          if (outcome.value.id && outcome.value.id !== match.id)
            await run.map(section, entry.sourceId, { ...match, id: outcome.value.id }, true);
          const recorded = run.record(section, {
            ...base,
            action: "Updated",
            notes: outcome.value.notes,
            changes,
          });
          outcome.value.after?.(recorded);
        } else skip(outcome.reason);
      }
    } else if (!selected) {
      run.record(section, { ...base, action: "Skipped", notes: ["Not selected for apply."] });
    } else if (run.options.conflictMode === "UpdateOnly") {
      run.record(section, {
        ...base,
        action: "Skipped",
        notes: ["Not in the target; UpdateOnly updates existing records only."],
      });
    } else {
      const outcome = await inSavepoint(run.ctx, (ctx) => importer.create(run, ctx, entry.item!));
      if (outcome.ok) {
        await run.map(section, entry.sourceId, { id: outcome.value.id, naturalKey: entry.naturalKey }, true);
        const recorded = run.record(section, { ...base, action: "Created", notes: outcome.value.notes });
        outcome.value.after?.(recorded);
      } else run.record(section, { ...base, action: "Skipped", notes: [outcome.reason] });
    }
    const last = run.section(section).items.at(-1)!;
    settleReason(last);
    if (!run.outcomes.has(section)) run.outcomes.set(section, []);
    run.outcomes.get(section)!.push({ item: entry.item, result: last, matched: !!match });
  }
}
