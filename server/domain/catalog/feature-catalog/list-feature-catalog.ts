import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { featureTypes } from "./feature-value.ts";
import { lifecycleStatuses } from "./feature-catalog.schemas.ts";
import { featureVisibilities } from "../products/product.schemas.ts";
import { toFeatureCatalogListResponses } from "./feature-catalog-response.ts";

export const featureCatalogSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  featureCode: { type: "string" },
  name: { type: "string" },
  featureType: { type: "enum", values: featureTypes },
  lifecycleStatus: { type: "enum", values: lifecycleStatuses },
  visibility: { type: "enum", values: featureVisibilities },
  metricName: { type: "string", nullable: true },
  units: { type: "string", nullable: true },
  meterAggregationType: { type: "string", nullable: true },
  valueScore: { type: "number", nullable: true },
  productId: { type: "uuid", nullable: true, sortable: false },
  isDeleted: { type: "boolean" },
  creationTimeStamp: { type: "date", column: "createdAt" },
  lastUpdateTimeStamp: { type: "date", column: "updatedAt" },
  revisionNumber: { type: "integer" },
};

/** The catalog, paginated; referencedBy is not computed in lists (null). */
export async function listFeatureCatalog(
  ctx: DomainContext,
  query: TListQuery & { includeDeleted?: boolean },
) {
  return listPage(
    query,
    {
      sieve: featureCatalogSieve,
      where: query.includeDeleted ? {} : { isDeleted: false },
      defaultOrder: [{ featureCode: "asc" }],
      findMany: (args) => ctx.db.featureCatalogEntry.findMany(args),
      count: (args) => ctx.db.featureCatalogEntry.count(args),
    },
    (rows) => toFeatureCatalogListResponses(ctx.db, rows),
  );
}
