import type { DomainContext } from "../context.ts";
import { notFound } from "../../http/errors.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { metricTypes, ownerKinds } from "./monitored-asset.schemas.ts";
import { monitoredAssetInclude, toMonitoredAssetResponses } from "./monitored-asset-response.ts";

const usageKindWhere: Record<string, Record<string, unknown>> = {
  Metered: { meteredUsages: { some: {} } },
  Balance: { balanceUsages: { some: {} } },
  None: { meteredUsages: { none: {} }, balanceUsages: { none: {} } },
};

export const monitoredAssetSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  metricName: { type: "string" },
  name: { type: "string" },
  category: { type: "string" },
  unit: { type: "string" },
  numberFormat: { type: "string", sortable: false },
  metricType: { type: "enum", values: metricTypes },
  ownerKind: { type: "enum", values: ownerKinds },
  productId: { type: "uuid", nullable: true, sortable: false },
  entitlementId: { type: "uuid", nullable: true, sortable: false },
  offerId: { type: "uuid", nullable: true, sortable: false },
  /** The product asset a copy was made from. */
  sourceAssetId: { type: "uuid", nullable: true, sortable: false },
  allowedBackDatingTolerance: { type: "string", nullable: true, sortable: false },
  /** Which usage object the asset carries: Metered, Balance or None. */
  usageKind: {
    type: "enum",
    values: ["Metered", "Balance", "None"],
    sortable: false,
    toWhere: (op, value) => {
      const kind = Object.keys(usageKindWhere).find((k) => k.toLowerCase() === value!.toLowerCase())!;
      return op === "==" ? usageKindWhere[kind] : { NOT: usageKindWhere[kind] };
    },
  },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
  revisionNumber: { type: "integer" },
};

async function listAssets(ctx: DomainContext, query: TListQuery, scope: object) {
  const where = { AND: [sieveWhere(query.filter, monitoredAssetSieve), scope] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, monitoredAssetSieve) ?? [{ metricName: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.monitoredAsset.findMany({ where, orderBy, include: monitoredAssetInclude, ...pageWindow(query) }),
    ctx.db.monitoredAsset.count({ where }),
  ]);
  return pageEnvelope(await toMonitoredAssetResponses(ctx.db, rows), query, totalCount);
}

/** GET /admin/monitored-assets: every asset of the tenant (products', entitlements' and offers'). */
export async function listMonitoredAssets(ctx: DomainContext, query: TListQuery) {
  return listAssets(ctx, query, {});
}

/** GET /admin/products/{id}/monitored-assets: the product's own assets (not copies held elsewhere). */
export async function listProductMonitoredAssets(ctx: DomainContext, productId: string, query: TListQuery) {
  const product = await ctx.db.product.findUnique({ where: { id: productId }, select: { id: true } });
  if (!product) throw notFound("Product");
  return listAssets(ctx, query, { productId, ownerKind: "Product" });
}
