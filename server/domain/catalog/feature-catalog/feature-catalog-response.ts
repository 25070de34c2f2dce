import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TFeatureCatalogResponse, TFeatureReferencedBy } from "./feature-catalog.schemas.ts";
import { readRecordTags } from "../tags/record-tags.ts";

export type FeatureCatalogRow = {
  id: string;
  productId: string | null;
  featureCode: string;
  name: string;
  units: string | null;
  metricName: string | null;
  featureType: string;
  lifecycleStatus: string;
  visibility: string;
  meterAggregationType: string | null;
  valueScore: number | null;
  enumOptions: unknown;
  isDeleted: boolean;
  createdAt: Date;
  updatedAt: Date;
  revisionNumber: number;
};

export type EnumOption = { value: string; description: string | null };

/** The stored enumOptions JSON as options (null for entries that have none). */
export function enumOptionsOf(json: unknown): EnumOption[] | null {
  return Array.isArray(json) ? (json as EnumOption[]) : null;
}

export function toFeatureCatalogResponse(
  row: FeatureCatalogRow,
  tags: string[],
  referencedBy: TFeatureReferencedBy | null,
): TFeatureCatalogResponse {
  return {
    id: row.id,
    productId: row.productId,
    featureCode: row.featureCode,
    name: row.name,
    units: row.units,
    metricName: row.metricName,
    featureType: row.featureType,
    lifecycleStatus: row.lifecycleStatus,
    visibility: row.visibility,
    meterAggregationType: row.meterAggregationType,
    valueScore: row.valueScore,
    enumOptions: enumOptionsOf(row.enumOptions) ?? [],
    tags,
    isDeleted: row.isDeleted,
    creationTimeStamp: row.createdAt.toISOString(),
    lastUpdateTimeStamp: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
    referencedBy,
  };
}

/** Responses for list rows: tags read in one query, referencedBy not computed (null). */
export async function toFeatureCatalogListResponses(
  db: TenantDbOrTx,
  rows: FeatureCatalogRow[],
): Promise<TFeatureCatalogResponse[]> {
  const tags = await readRecordTags(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toFeatureCatalogResponse(row, tags.get(row.id) ?? [], null));
}
