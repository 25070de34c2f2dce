import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TProductFeatureResponse, TProductReferencedBy, TProductResponse } from "./product.schemas.ts";
import type { TMonitoredAssetResponse } from "../monitored-assets/monitored-asset.schemas.ts";
import { readRecordTags } from "../tags/record-tags.ts";
import {
  monitoredAssetInclude,
  toMonitoredAssetResponses,
} from "../monitored-assets/monitored-asset-response.ts";
import { productReferencedBy } from "./product-references.ts";

export type ProductRow = {
  id: string;
  tenantId: string;
  status: string;
  name: string;
  description: string;
  productCode: string;
  productVersion: string;
  expirationDate: Date | null;
  externalId: string | null;
  propertyValues: unknown;
  isLocked: boolean;
  applicationScopes: string[];
  parentProductId: string | null;
  isDeleted: boolean;
  createdAt: Date;
  updatedAt: Date;
  revisionNumber: number;
};

type ProductFeatureRow = {
  id: string;
  productId: string;
  featureCatalogId: string;
  moduleName: string | null;
  name: string;
  description: string;
  value: string | null;
  isEnabled: boolean;
  includeInLicenseToken: boolean;
  isAvailableDuringTrialPeriod: boolean;
  isAvailableDuringGracePeriod: boolean;
  isPaidFeature: boolean;
  canModifyValueOnEntitlement: boolean;
  visibility: string;
  sortOrder: number;
  isDeleted: boolean;
  createdAt: Date;
  updatedAt: Date;
  revisionNumber: number;
  featureCatalog: {
    featureCode: string;
    metricName: string | null;
    units: string | null;
    featureType: string;
    enumOptions: unknown;
    meterAggregationType: string | null;
    lifecycleStatus: string;
  };
};

/** docs/api.md: every list of a product's features is ordered by sortOrder. */
export const productFeatureOrder = [{ sortOrder: "asc" }, { createdAt: "asc" }, { id: "asc" }] as const;
export const productFeatureInclude = { featureCatalog: true } as const;

export function toProductFeatureResponse(row: ProductFeatureRow): TProductFeatureResponse {
  const entry = row.featureCatalog;
  return {
    id: row.id,
    productId: row.productId,
    featureCatalogId: row.featureCatalogId,
    featureCode: entry.featureCode,
    moduleName: row.moduleName,
    name: row.name,
    description: row.description,
    usageMetric: entry.metricName,
    units: entry.units,
    featureType: entry.featureType,
    enumOptions: (entry.enumOptions as TProductFeatureResponse["enumOptions"] | null) ?? [],
    value: row.value,
    isEnabled: row.isEnabled,
    includeInLicenseToken: row.includeInLicenseToken,
    isAvailableDuringTrialPeriod: row.isAvailableDuringTrialPeriod,
    isAvailableDuringGracePeriod: row.isAvailableDuringGracePeriod,
    isPaidFeature: row.isPaidFeature,
    canModifyValueOnEntitlement: row.canModifyValueOnEntitlement,
    meterAggregationType: entry.meterAggregationType,
    visibility: row.visibility,
    catalogLifecycleStatus: entry.lifecycleStatus,
    sortOrder: row.sortOrder,
    isDeleted: row.isDeleted,
    creationTimeStamp: row.createdAt.toISOString(),
    lastUpdateTimeStamp: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
  };
}

type ProductParts = {
  tags: string[];
  features: TProductFeatureResponse[];
  monitoredAssets: TMonitoredAssetResponse[];
  referencedBy: TProductReferencedBy;
};

export function toProductResponse(row: ProductRow, parts: ProductParts): TProductResponse {
  return {
    id: row.id,
    status: row.status,
    // The provider is the vendor (tenant) that publishes the product.
    providerId: row.tenantId,
    name: row.name,
    description: row.description,
    productCode: row.productCode,
    productVersion: row.productVersion,
    expirationDate: row.expirationDate?.toISOString() ?? null,
    externalId: row.externalId,
    tags: parts.tags,
    features: parts.features,
    monitoredAssets: parts.monitoredAssets,
    // Metrics are the metric part of the product's own monitored assets (docs/decisions.md).
    metrics: parts.monitoredAssets.map((a) => ({
      id: a.id,
      productId: row.id,
      metricName: a.metricName,
      name: a.name,
      description: a.description,
      metricType: a.metricType,
      unit: a.unit,
      category: a.category,
      numberFormat: a.numberFormat,
    })),
    propertyValues: row.propertyValues as TProductResponse["propertyValues"],
    isDeleted: row.isDeleted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
    isLocked: row.isLocked,
    applicationScopes: row.applicationScopes,
    parentProductId: row.parentProductId,
    referencedBy: parts.referencedBy,
  };
}

/** Full product responses for rows, in their order: live features, own assets, tags, references. */
export async function toProductResponses(db: TenantDbOrTx, rows: ProductRow[]): Promise<TProductResponse[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [tags, features, assets, references] = await Promise.all([
    readRecordTags(db, ids),
    db.productFeature.findMany({
      where: { productId: { in: ids }, isDeleted: false },
      orderBy: [...productFeatureOrder],
      include: productFeatureInclude,
    }),
    db.monitoredAsset.findMany({
      where: { productId: { in: ids }, ownerKind: "Product" },
      orderBy: [{ metricName: "asc" }],
      include: monitoredAssetInclude,
    }),
    productReferencedBy(db, ids),
  ]);
  const assetResponses = await toMonitoredAssetResponses(db, assets);
  return rows.map((row) =>
    toProductResponse(row, {
      tags: tags.get(row.id) ?? [],
      features: features.filter((f) => f.productId === row.id).map(toProductFeatureResponse),
      monitoredAssets: assetResponses.filter((a) => a.productId === row.id),
      referencedBy: references.get(row.id)!,
    }),
  );
}

/** One product (deleted ones included, reading `isDeleted: true`), or null. */
export async function loadProduct(db: TenantDbOrTx, id: string): Promise<TProductResponse | null> {
  const row = await db.product.findUnique({ where: { id } });
  return row ? (await toProductResponses(db, [row]))[0] : null;
}
