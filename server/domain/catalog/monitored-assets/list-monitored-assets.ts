import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
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
  return listPage(
    query,
    {
      sieve: monitoredAssetSieve,
      where: scope,
      defaultOrder: [{ metricName: "asc" }],
      findMany: (args) => ctx.db.monitoredAsset.findMany({ ...args, include: monitoredAssetInclude }),
      count: (args) => ctx.db.monitoredAsset.count(args),
    },
    (rows) => toMonitoredAssetResponses(ctx.db, rows),
  );
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
