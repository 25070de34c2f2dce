import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import {
  kindOfSection,
  sectionLabels,
  sectionNames,
  type ReferenceKind,
  type SectionName,
} from "../snapshot/sections.ts";
import { businessKey, loadNaturalKeys, type KeyedRecord } from "../snapshot/natural-keys.ts";
import type { ClosedSelection } from "./dependency-closure.ts";
import type { TReference, TSnapshotWarning } from "../snapshot/snapshot.schemas.ts";

export type ReferenceMap = {
  references: Record<string, TReference>;
  warnings: TSnapshotWarning[];
  keys: Map<string, KeyedRecord>;
};

/**
 * docs/api.md `references`: an entry for every id in the file and every id an item of the file refers
 * to, present or not, with its kind, natural key, presence and provenance (`section/key.field` of
 * each item that refers to it; empty for an id selected directly). Warnings never block: items of
 * a section that share a business key (`ambiguous-natural-key`), references to records that no
 * longer exist (`missing-reference`), and references left out of a strict slice (`excluded-reference`).
 */
export async function buildReferenceMap(db: TenantDbOrTx, closed: ClosedSelection): Promise<ReferenceMap> {
  const idsByKind = new Map<ReferenceKind, string[]>();
  const add = (kind: ReferenceKind, id: string) => {
    if (!idsByKind.has(kind)) idsByKind.set(kind, []);
    idsByKind.get(kind)!.push(id);
  };
  const inFile = new Map<string, SectionName>();
  for (const section of sectionNames) {
    for (const [id, exported] of closed.items[section]) {
      inFile.set(id, section);
      add(kindOfSection[section], id);
      for (const edge of exported.edges) add(edge.kind, edge.id);
    }
  }
  const keys = await loadNaturalKeys(db, idsByKind);
  const keyOf = (section: SectionName, id: string) =>
    businessKey(kindOfSection[section], keys.get(id)?.naturalKey ?? {});

  const references: Record<string, TReference> = {};
  const provenance = new Map<string, Set<string>>();
  const edgeKind = new Map<string, ReferenceKind>();
  for (const section of sectionNames) {
    for (const [id, exported] of closed.items[section]) {
      for (const edge of exported.edges) {
        if (!provenance.has(edge.id)) provenance.set(edge.id, new Set());
        provenance.get(edge.id)!.add(`${section}/${keyOf(section, id)}.${edge.field}`);
        edgeKind.set(edge.id, edge.kind);
      }
      // A companion pulled in says why it is there; one left out is no reference (no warning).
      for (const companion of exported.companions ?? []) {
        if (!provenance.has(companion.id)) provenance.set(companion.id, new Set());
        provenance.get(companion.id)!.add(`${section}/${keyOf(section, id)}.${companion.field}`);
      }
    }
  }
  for (const [id, section] of inFile) {
    const presence = closed.presence.get(id) ?? "Explicit";
    references[id] = {
      kind: kindOfSection[section],
      naturalKey: keys.get(id)?.naturalKey ?? {},
      presence,
      referencedBy: presence === "Explicit" ? [] : [...(provenance.get(id) ?? [])].sort(),
    };
  }
  const warnings: TSnapshotWarning[] = [];
  const excludedByKind = new Map<ReferenceKind, number>();
  for (const [id, kind] of edgeKind) {
    if (inFile.has(id)) continue;
    const keyed = keys.get(id);
    const presence = keyed?.live ? "Excluded" : "Missing";
    references[id] = {
      kind,
      naturalKey: keyed?.naturalKey ?? {},
      presence,
      referencedBy: [...(provenance.get(id) ?? [])].sort(),
    };
    if (presence === "Missing") {
      warnings.push({
        code: "missing-reference",
        key: `${kind}:${id}`,
        message: `${kind} ${keyed ? businessKey(kind, keyed.naturalKey) : id} no longer exists in the source tenant; it is referenced by ${references[id].referencedBy.join(", ")}. The importer looks it up by natural key in the target${keyed ? "" : ", and this id has none"}.`,
      });
    } else excludedByKind.set(kind, (excludedByKind.get(kind) ?? 0) + 1);
  }
  for (const [kind, count] of excludedByKind) {
    warnings.push({
      code: "excluded-reference",
      key: kind,
      message: `${count} referenced ${kind} record(s) are not in the file (includeDependencies is false or the section was not selected); the importer matches them by natural key in the target.`,
    });
  }
  for (const section of sectionNames) {
    const byKey = new Map<string, number>();
    for (const id of closed.items[section].keys())
      byKey.set(keyOf(section, id), (byKey.get(keyOf(section, id)) ?? 0) + 1);
    for (const [key, count] of byKey) {
      if (count < 2) continue;
      warnings.push({
        code: "ambiguous-natural-key",
        key: `${section}/${key}`,
        message: `${count} ${sectionLabels[section].toLowerCase()} share the key "${key}": selective apply by this key applies all of them${section === "plans" ? ", and revisions are paired with the target's revisions of the same suite and name in revision order" : ", and each is matched to the same target record"}.`,
      });
    }
  }
  return { references, warnings, keys };
}
