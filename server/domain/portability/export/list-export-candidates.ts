import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { pageEnvelope, pageWindow, ZListQuery, type Page } from "../../../core/pagination.ts";
import { ZSectionName } from "../snapshot/snapshot.schemas.ts";
import type { SectionName } from "../snapshot/sections.ts";

export const ZExportCandidatesQuery = ZListQuery.pick({ pageNumber: true, pageSize: true }).extend({
  section: ZSectionName,
  /** Contained in the record's name or code, case-insensitively. */
  search: z.string().trim().max(200).default(""),
});
export type TExportCandidatesQuery = z.output<typeof ZExportCandidatesQuery>;

export const ZExportCandidate = z.object({
  id: z.string().uuid(),
  /** The business key import results and selective apply use. */
  key: z.string(),
  label: z.string(),
  detail: z.string(),
});
export type TExportCandidate = z.output<typeof ZExportCandidate>;

const like = (search: string) => ({ contains: search, mode: "insensitive" as const });
const productKey = (p: { productCode: string; productVersion: string }) =>
  p.productVersion ? `${p.productCode}@${p.productVersion}` : p.productCode;

type Lister = (
  ctx: DomainContext,
  search: string,
  window: { skip: number; take: number },
) => Promise<[TExportCandidate[], number]>;

/** What mode `All` would export of each section, searchable by name or code. */
const listers: Record<SectionName, Lister> = {
  async tags(ctx, search, window) {
    const where = { isDeleted: false, ...(search ? { name: like(search) } : {}) };
    const [rows, total] = await Promise.all([
      ctx.db.tag.findMany({ where, orderBy: [{ scope: "asc" }, { name: "asc" }], ...window }),
      ctx.db.tag.count({ where }),
    ]);
    return [
      rows.map((t) => ({ id: t.id, key: `${t.scope}:${t.name}`, label: t.name, detail: t.scope })),
      total,
    ];
  },
  async products(ctx, search, window) {
    const where = {
      isDeleted: false,
      ...(search ? { OR: [{ name: like(search) }, { productCode: like(search) }] } : {}),
    };
    const [rows, total] = await Promise.all([
      ctx.db.product.findMany({
        where,
        orderBy: [{ productCode: "asc" }, { productVersion: "asc" }],
        ...window,
      }),
      ctx.db.product.count({ where }),
    ]);
    return [rows.map((p) => ({ id: p.id, key: productKey(p), label: p.name, detail: p.status })), total];
  },
  async featureCatalog(ctx, search, window) {
    const where = {
      isDeleted: false,
      ...(search ? { OR: [{ name: like(search) }, { featureCode: like(search) }] } : {}),
    };
    const [rows, total] = await Promise.all([
      ctx.db.featureCatalogEntry.findMany({ where, orderBy: [{ featureCode: "asc" }], ...window }),
      ctx.db.featureCatalogEntry.count({ where }),
    ]);
    return [
      rows.map((f) => ({
        id: f.id,
        key: f.featureCode,
        label: f.name,
        detail: `${f.featureType} · ${f.lifecycleStatus}`,
      })),
      total,
    ];
  },
  async monitoredAssets(ctx, search, window) {
    const where = {
      ownerKind: "Product",
      product: { isDeleted: false },
      ...(search ? { OR: [{ name: like(search) }, { metricName: like(search) }] } : {}),
    };
    const [rows, total] = await Promise.all([
      ctx.db.monitoredAsset.findMany({
        where,
        orderBy: [{ metricName: "asc" }, { id: "asc" }],
        include: { product: { select: { productCode: true, productVersion: true, name: true } } },
        ...window,
      }),
      ctx.db.monitoredAsset.count({ where }),
    ]);
    return [
      rows.map((a) => ({
        id: a.id,
        key: `${a.product ? productKey(a.product) : ""}/${a.metricName}`,
        label: a.name,
        detail: a.product?.name ?? "",
      })),
      total,
    ];
  },
  async suites(ctx, search, window) {
    const where = search ? { OR: [{ name: like(search) }, { code: like(search) }] } : {};
    const [rows, total] = await Promise.all([
      ctx.db.suite.findMany({ where, orderBy: [{ code: "asc" }], ...window }),
      ctx.db.suite.count({ where }),
    ]);
    return [
      rows.map((s) => ({ id: s.id, key: s.code, label: s.name, detail: s.isImplicit ? "implicit" : "" })),
      total,
    ];
  },
  async plans(ctx, search, window) {
    const where = search ? { OR: [{ name: like(search) }, { suite: { name: like(search) } }] } : {};
    const [rows, total] = await Promise.all([
      ctx.db.usagePlanSet.findMany({
        where,
        orderBy: [{ suite: { code: "asc" } }, { revision: "asc" }],
        include: { suite: { select: { name: true } } },
        ...window,
      }),
      ctx.db.usagePlanSet.count({ where }),
    ]);
    return [
      rows.map((p) => ({
        id: p.id,
        key: p.name,
        label: `${p.name} (r${p.revision})`,
        detail: `${p.suite.name} · ${p.status}`,
      })),
      total,
    ];
  },
  async addOns(ctx, search, window) {
    const where = search ? { OR: [{ name: like(search) }, { code: like(search) }] } : {};
    const [rows, total] = await Promise.all([
      ctx.db.addOn.findMany({ where, orderBy: [{ code: "asc" }], ...window }),
      ctx.db.addOn.count({ where }),
    ]);
    return [rows.map((a) => ({ id: a.id, key: a.code, label: a.name, detail: a.status })), total];
  },
  async entitlementOffers(ctx, search, window) {
    const where = search ? { name: like(search) } : {};
    const [rows, total] = await Promise.all([
      ctx.db.offer.findMany({ where, orderBy: [{ name: "asc" }, { createdAt: "asc" }], ...window }),
      ctx.db.offer.count({ where }),
    ]);
    return [
      rows.map((o) => ({ id: o.id, key: o.name, label: o.name, detail: `${o.status} · v${o.version}` })),
      total,
    ];
  },
  async ratingCampaigns(ctx, search, window) {
    const where = search ? { name: like(search) } : {};
    const [rows, total] = await Promise.all([
      ctx.db.ratingCampaign.findMany({ where, orderBy: [{ name: "asc" }], ...window }),
      ctx.db.ratingCampaign.count({ where }),
    ]);
    return [
      rows.map((c) => ({
        id: c.id,
        key: c.name,
        label: c.name,
        detail: c.isEnabled ? "enabled" : "disabled",
      })),
      total,
    ];
  },
};

/** The export wizard's picker: one page of a section's exportable records, with their business keys. */
export async function listExportCandidates(
  ctx: DomainContext,
  query: TExportCandidatesQuery,
): Promise<Page<TExportCandidate>> {
  const [items, total] = await listers[query.section](ctx, query.search, pageWindow(query));
  return pageEnvelope(items, query, total);
}
