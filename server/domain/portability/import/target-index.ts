import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { ReferenceKind } from "../snapshot/sections.ts";
import { loadNaturalKeys, matchKey } from "../snapshot/natural-keys.ts";
import type { TNaturalKey } from "../snapshot/snapshot.schemas.ts";

export type TargetRecord = { id: string; naturalKey: TNaturalKey; status?: string; revision?: number };

/** Ids of the target's records a file item may match: live ones (archived offers last in preference). */
async function matchableIds(db: TenantDbOrTx, kind: ReferenceKind): Promise<TargetRecord[]> {
  const ids = (rows: { id: string }[]) => rows.map((r) => ({ id: r.id, naturalKey: {} }));
  switch (kind) {
    case "Tag":
      return ids(await db.tag.findMany({ where: { isDeleted: false }, select: { id: true } }));
    case "Product":
      return ids(await db.product.findMany({ where: { isDeleted: false }, select: { id: true } }));
    case "FeatureCatalogEntry":
      return ids(
        await db.featureCatalogEntry.findMany({ where: { isDeleted: false }, select: { id: true } }),
      );
    case "MonitoredAsset":
      return ids(
        await db.monitoredAsset.findMany({
          where: { ownerKind: "Product", product: { isDeleted: false } },
          select: { id: true },
        }),
      );
    case "Suite":
      return ids(await db.suite.findMany({ select: { id: true } }));
    case "PlanSet":
      return (
        await db.usagePlanSet.findMany({
          select: { id: true, status: true, revision: true },
          orderBy: [{ revision: "asc" }],
        })
      ).map((r) => ({ id: r.id, naturalKey: {}, status: r.status, revision: r.revision }));
    case "AddOn":
      return ids(await db.addOn.findMany({ select: { id: true } }));
    case "Offer":
      return (
        await db.offer.findMany({ select: { id: true, status: true }, orderBy: [{ createdAt: "asc" }] })
      ).map((r) => ({ id: r.id, naturalKey: {}, status: r.status }));
    case "RatingCampaign":
      return ids(await db.ratingCampaign.findMany({ select: { id: true }, orderBy: [{ createdAt: "asc" }] }));
    case "CustomerOrganization":
      return ids(await db.customerOrganization.findMany({ select: { id: true } }));
  }
}

/**
 * The import's view of the target tenant's records by natural key: read once per kind, then kept
 * up to date with what the import creates, so later items and references find earlier ones.
 */
export class TargetIndex {
  private readonly byKind = new Map<ReferenceKind, Promise<Map<string, TargetRecord[]>>>();
  private readonly records = new Map<ReferenceKind, TargetRecord[]>();
  private readonly ids = new Map<string, { kind: ReferenceKind; naturalKey: TNaturalKey }>();

  constructor(private readonly db: TenantDbOrTx) {}

  private load(kind: ReferenceKind): Promise<Map<string, TargetRecord[]>> {
    let loaded = this.byKind.get(kind);
    if (!loaded) {
      loaded = (async () => {
        const records = await matchableIds(this.db, kind);
        const keys = await loadNaturalKeys(this.db, new Map([[kind, records.map((r) => r.id)]]));
        const index = new Map<string, TargetRecord[]>();
        for (const record of records) {
          record.naturalKey = keys.get(record.id)?.naturalKey ?? {};
          this.ids.set(record.id, { kind, naturalKey: record.naturalKey });
          const key = matchKey(kind, record.naturalKey);
          if (!index.has(key)) index.set(key, []);
          index.get(key)!.push(record);
        }
        this.records.set(kind, records);
        return index;
      })();
      this.byKind.set(kind, loaded);
    }
    return loaded;
  }

  /** The target's records with the natural key (several for plan-set revisions, offers and campaigns of one name). */
  async find(kind: ReferenceKind, naturalKey: TNaturalKey): Promise<TargetRecord[]> {
    return (await this.load(kind)).get(matchKey(kind, naturalKey)) ?? [];
  }

  /** Every matchable record of the kind (the comparison's onlyInTarget). */
  async all(kind: ReferenceKind): Promise<TargetRecord[]> {
    await this.load(kind);
    return this.records.get(kind) ?? [];
  }

  /** Loads the kinds a comparison will look up by id. */
  async preload(kinds: readonly ReferenceKind[]): Promise<void> {
    await Promise.all(kinds.map((k) => this.load(k)));
  }

  /** A loaded record's kind and natural key, by id. */
  byId(id: string): { kind: ReferenceKind; naturalKey: TNaturalKey } | undefined {
    return this.ids.get(id);
  }

  /** Records what the import created, under its natural key. */
  async add(kind: ReferenceKind, record: TargetRecord): Promise<void> {
    const index = await this.load(kind);
    this.ids.set(record.id, { kind, naturalKey: record.naturalKey });
    const key = matchKey(kind, record.naturalKey);
    if (!index.has(key)) index.set(key, []);
    index.get(key)!.push(record);
    this.records.get(kind)!.push(record);
  }
}
