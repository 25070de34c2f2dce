import type { DomainContext } from "../context.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../http/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "../../http/sieve.ts";
import { featureTypes } from "./feature-value.ts";
import { lifecycleStatuses } from "./feature-catalog.schemas.ts";
import { featureVisibilities } from "./product.schemas.ts";
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
export async function listFeatureCatalog(ctx: DomainContext, query: TListQuery & { includeDeleted?: boolean }) {
  const where = { AND: [sieveWhere(query.filter, featureCatalogSieve), query.includeDeleted ? {} : { isDeleted: false }] };
  const orderBy = [...(sieveOrderBy(query.sortOrder, featureCatalogSieve) ?? [{ featureCode: "asc" }]), { id: "asc" }];
  const [rows, totalCount] = await Promise.all([
    ctx.db.featureCatalogEntry.findMany({ where, orderBy, ...pageWindow(query) }),
    ctx.db.featureCatalogEntry.count({ where }),
  ]);
  return pageEnvelope(await toFeatureCatalogListResponses(ctx.db, rows), query, totalCount);
}
