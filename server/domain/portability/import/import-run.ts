import type { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { joinable, type TenantDbOrTx, type TenantTx } from "../../../db/tenant-db.ts";
import { AppError, validationError } from "../../../core/errors.ts";
import { zodIssues } from "../../../core/zod-issues.ts";
import { kindOfSection, type ReferenceKind, type SectionName } from "../snapshot/sections.ts";
import { businessKey } from "../snapshot/natural-keys.ts";

/** How a comparison shows a reference: its business key (a plan-set revision also by suite and number). */
export function referenceLabel(kind: ReferenceKind, key: TNaturalKey): string {
  return kind === "PlanSet"
    ? `${key.code ?? ""}/${key.name ?? ""} r${key.version ?? "?"}`
    : businessKey(kind, key);
}
import { TargetIndex, type TargetRecord } from "./target-index.ts";
import type { SnapshotFile } from "../snapshot/snapshot-file.ts";
import type {
  TImportAction,
  TImportItemResult,
  TImportOptions,
  TImportSectionResult,
  TItemChange,
  TNaturalKey,
} from "../snapshot/snapshot.schemas.ts";

export type ImportProgress = {
  section: SectionName;
  sectionProcessed: number;
  sectionTotal: number;
  processed: number;
  total: number;
};

/** A mutable item result: later phases (features, lifecycle, locks) add to its reason. */
export type ItemResult = TImportItemResult & { notes: string[] };

export type SectionResult = Omit<TImportSectionResult, "items"> & { items: ItemResult[] };

/** A section's result before any item (also the deprecated `products` of a file without products). */
export const emptySectionResult = (section: SectionName): SectionResult => ({
  section,
  created: 0,
  updated: 0,
  skipped: 0,
  unusableMetricNames: [],
  onlyInTarget: [],
  items: [],
});

/** Work the products section leaves for after the catalog entries and assets exist. */
export type DeferredWork = {
  features: {
    productId: string;
    item: ItemResult;
    features: import("../snapshot/snapshot-items.schemas.ts").TPortableProductFeature[];
    /** The item is Updated for these features alone: if none can be attached, nothing was. */
    onlyChange?: boolean;
  }[];
  lifecycle: { entryId: string; status: string; item: ItemResult }[];
  locks: { productId: string; item: ItemResult }[];
};

/** The reason an error gives for skipping an item: its code name, detail and field problems. */
export function reasonOf(error: AppError): string {
  const issues = error.issues?.length
    ? ` (${error.issues
        .slice(0, 5)
        .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
        .join("; ")}${error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : ""})`
    : "";
  const detail = error.issues?.length && error.message.startsWith("Invalid") ? "" : ` ${error.message}`;
  return `${error.codeName}:${detail}${issues}`.trim();
}

/** Database refusals a domain function does not translate itself (a constraint, a vanished row). */
const constraintCodes = new Set(["P2002", "P2003", "P2004", "P2011", "P2025"]);

/** Parses a domain request with the domain's own schema; a refusal reads like the API's 400. */
export function parseDomainInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error, "");
    throw validationError(
      `Invalid ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
      issues,
    );
  }
  return parsed.data;
}

/** A refusal the importer itself makes (a reference it cannot resolve...), reported like a domain one. */
export class ItemRefusal extends Error {}

type Savepointed = { $transaction<T>(fn: (tx: TenantTx) => Promise<T>): Promise<T> };

/**
 * Runs `fn` in a SAVEPOINT of the import transaction: a refused item rolls back its own writes
 * (PostgreSQL aborts the whole transaction on a failed statement otherwise) and the import goes
 * on. Domain refusals and database constraint errors skip the item; anything else is a bug and
 * ends the import.
 */
export async function inSavepoint<T>(
  ctx: DomainContext,
  fn: (ctx: DomainContext) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
  try {
    const value = await (ctx.db as unknown as Savepointed).$transaction((sp) =>
      fn({ ...ctx, db: joinable(sp) }),
    );
    return { ok: true, value };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, reason: reasonOf(error) };
    if (error instanceof ItemRefusal) return { ok: false, reason: error.message };
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && constraintCodes.has(code))
      return { ok: false, reason: `constraint: ${(error as Error).message.split("\n").pop()}` };
    throw error;
  }
}

/**
 * The state of one import: the file, the target's records by natural key, the source id → target
 * id map every reference is remapped through, and the results.
 */
export class ImportRun {
  readonly index: TargetIndex;
  readonly idMap = new Map<string, string>();
  /** Products this import created: only their features and assets are the import's to write. */
  readonly createdProducts = new Set<string>();
  readonly deferred: DeferredWork = { features: [], lifecycle: [], locks: [] };
  readonly results = new Map<SectionName, SectionResult>();
  /** Target ids each section matched or created (onlyInTarget is the rest). */
  readonly matched = new Map<SectionName, Set<string>>();
  processed = 0;

  constructor(
    readonly ctx: DomainContext,
    readonly file: SnapshotFile,
    readonly options: TImportOptions,
    readonly onProgress?: (progress: ImportProgress) => void,
  ) {
    this.index = new TargetIndex(ctx.db);
  }

  get db(): TenantDbOrTx {
    return this.ctx.db;
  }

  /** The natural key the file gives a source id (its own item, or its references entry). */
  sourceKey(id: string | null | undefined): TNaturalKey | null {
    if (!id) return null;
    return this.file.itemKeys.get(id)?.naturalKey ?? this.file.references.get(id)?.naturalKey ?? null;
  }

  /**
   * The target id a source id stands for: the record the import created or matched for it, or
   * else the target's record with the natural key the file gives it. Null when none exists.
   */
  async resolve(kind: ReferenceKind, sourceId: string | null | undefined): Promise<string | null> {
    if (!sourceId) return null;
    const mapped = this.idMap.get(sourceId);
    if (mapped) return mapped;
    const key = this.sourceKey(sourceId);
    if (!key) return null;
    const found = await this.findTarget(kind, key);
    if (found) this.idMap.set(sourceId, found.id);
    return found?.id ?? null;
  }

  /** The target record a natural key names (plan sets: the revision of that number, else the latest). */
  async findTarget(kind: ReferenceKind, key: TNaturalKey): Promise<TargetRecord | null> {
    if (kind === "Suite" && key.productCode !== undefined) {
      const product = (await this.index.find("Product", key))[0];
      if (product) {
        const implicit = await this.db.suite.findFirst({
          where: { implicitProductId: product.id },
          select: { id: true },
        });
        if (implicit) return { id: implicit.id, naturalKey: key };
      }
    }
    const candidates = await this.index.find(kind, key);
    if (!candidates.length) return null;
    if (kind === "PlanSet")
      return (
        candidates.find((c) => String(c.revision) === key.version) ??
        [...candidates].reverse().find((c) => c.status !== "Archived") ??
        candidates[candidates.length - 1]
      );
    if (kind === "Offer") return candidates.find((c) => c.status !== "Archived") ?? candidates[0];
    return candidates[0];
  }

  /** A reference key for comparisons: the target record's label, else the id as given. */
  targetKeyOf = (id: string | null | undefined): string | null => {
    if (!id) return null;
    const record = this.index.byId(id);
    return record ? referenceLabel(record.kind, record.naturalKey) : id;
  };

  /** The same for a file's reference: through the record it was matched or imported to, else the file's key. */
  sourceKeyOf = (id: string | null | undefined): string | null => {
    if (!id) return null;
    const mapped = this.idMap.get(id);
    if (mapped) return this.targetKeyOf(mapped);
    const own = this.file.itemKeys.get(id);
    if (own) return referenceLabel(kindOfSection[own.section], own.naturalKey);
    const reference = this.file.references.get(id);
    return reference ? referenceLabel(reference.kind, reference.naturalKey) : id;
  };

  /** What the import has done to each item so far, with the file's item (unusable metric names). */
  readonly outcomes = new Map<SectionName, { item: unknown; result: ItemResult; matched: boolean }[]>();

  section(section: SectionName): SectionResult {
    let result = this.results.get(section);
    if (!result) {
      result = emptySectionResult(section);
      this.results.set(section, result);
      this.matched.set(section, new Set());
    }
    return result;
  }

  record(
    section: SectionName,
    entry: {
      key: string;
      sourceId: string | null;
      action: TImportAction;
      notes?: string[];
      changes?: TItemChange[];
    },
  ): ItemResult {
    const result = this.section(section);
    const item: ItemResult = {
      key: entry.key,
      sourceId: entry.sourceId,
      action: entry.action,
      reason: null,
      changes: this.options.compare ? (entry.changes ?? []) : [],
      notes: [...(entry.notes ?? [])],
    };
    if (entry.action === "Created") result.created++;
    else if (entry.action === "Updated") result.updated++;
    else if (entry.action === "Skipped") result.skipped++;
    result.items.push(item);
    return item;
  }

  /** An item whose only change turned out impossible in a later phase is Skipped after all. */
  skipAfterAll(section: SectionName, item: ItemResult) {
    const result = this.section(section);
    if (item.action === "Updated") result.updated--;
    else if (item.action === "Created") result.created--;
    else return;
    item.action = "Skipped";
    result.skipped++;
  }

  /** Records a source id's target and counts it as matched by the section. */
  async map(section: SectionName, sourceId: string | null, record: TargetRecord, created: boolean) {
    if (sourceId) this.idMap.set(sourceId, record.id);
    this.matched.get(section)?.add(record.id);
    if (created) await this.index.add(kindOfSection[section], record);
  }

  tick(section: SectionName, sectionProcessed: number, sectionTotal: number) {
    this.processed++;
    this.onProgress?.({
      section,
      sectionProcessed,
      sectionTotal,
      processed: this.processed,
      total: this.file.total,
    });
  }
}
