/**
 * Demo products for `npm run seed`: a feature catalog and two products with ordered features,
 * properties and monitored assets (a prepaid AI-credit balance and metered API calls whose overage
 * draws on it). Everything goes through the domain functions, as the API would. Safe to run
 * again: entries and products that exist (by code) are left as they are.
 */
import type { DomainContext } from "../../server/domain/context.ts";
import { createFeatureCatalogEntry } from "../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { addProductFeature } from "../../server/domain/catalog/products/add-product-feature.ts";
import { createMonitoredAsset } from "../../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZFeatureCatalogCreateRequest } from "../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import {
  ZProductCreateRequest,
  ZProductFeatureCreateRequest,
} from "../../server/domain/catalog/products/product.schemas.ts";
import { ZMonitoredAssetCreateRequest } from "../../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";

const catalog = [
  {
    featureCode: "SEATS",
    name: "Seats",
    featureType: "Numeric",
    units: "seats",
    valueScore: 1,
    tags: ["Premium"],
  },
  {
    featureCode: "API_CALLS",
    name: "API calls",
    featureType: "Metered",
    metricName: "api-calls",
    units: "calls",
    meterAggregationType: "CumulativeCounter",
    tags: ["Usage-based"],
  },
  {
    featureCode: "AI_CREDITS",
    name: "AI credits",
    featureType: "Metered",
    metricName: "ai-credits",
    units: "credits",
    tags: ["Usage-based"],
  },
  { featureCode: "SSO", name: "Single sign-on", featureType: "Boolean", valueScore: 3, tags: ["Premium"] },
  {
    featureCode: "SUPPORT_TIER",
    name: "Support",
    featureType: "Enumeration",
    enumOptions: [
      { value: "community" },
      { value: "standard" },
      { value: "priority", description: "4-hour response" },
    ],
  },
  { featureCode: "EXPORT_PDF", name: "PDF export", featureType: "Boolean" },
  { featureCode: "THEME", name: "Branding theme", featureType: "JsonField", lifecycleStatus: "Preview" },
] as const;

const products = [
  {
    product: {
      name: "Studio Desktop",
      productCode: "STUDIO",
      productVersion: "2.1",
      status: "Active",
      tags: ["Desktop"],
      description: "The desktop editor.",
      applicationScopes: ["desktop"],
      propertyValues: {
        "Download URL": {
          key: "downloadUrl",
          value: "https://downloads.demo.example.com/studio",
          visibility: "Public",
        },
        "ERP SKU": { value: "STU-21", visibility: "Private" },
      },
    },
    features: [
      { code: "SEATS", value: "5" },
      { code: "SUPPORT_TIER", value: "standard" },
      { code: "EXPORT_PDF", value: "true" },
      { code: "API_CALLS", value: "10000" },
      { code: "AI_CREDITS", value: "500" },
    ],
    assets: [
      {
        metricName: "ai-credits",
        name: "AI credits",
        unit: "credits",
        category: "Billing",
        allowedBackDatingTolerance: "P1D",
        balanceUsage: {
          name: "AI credits",
          unit: "credits",
          initialCreditAmount: 500,
          autoBalanceCronSchedule: "0 0 1 * *",
          autoBalanceCreditAmount: 500,
          usageQuota: [
            { endUsage: 50, name: "Almost out", quotaUsageLevel: "High" },
            { endUsage: 1, name: "Empty", quotaUsageLevel: "Critical" },
          ],
        },
      },
      {
        metricName: "api-calls",
        name: "API calls",
        unit: "calls",
        category: "Usage",
        allowedBackDatingTolerance: "P7D",
        meteredUsage: {
          consumptionPeriod: "month",
          usageTiers: [
            {
              name: "Included",
              startUsage: 0,
              endUsage: 10000,
              endPercentage: 100,
              quotaUsagePolicy: "None",
            },
            {
              name: "Overage",
              startUsage: 10000,
              startPercentage: 100,
              creditsPerUnitOfConsumption: 0.01,
              quotaUsageLevel: "Low",
              quotaUsagePolicy: "AllowWithOverage",
              fundingBalanceMetric: "ai-credits",
            },
          ],
        },
      },
    ],
  },
  {
    product: {
      name: "Studio Cloud Sync",
      productCode: "STUDIO-SYNC",
      productVersion: "1.0",
      status: "Active",
      tags: ["Server"],
      description: "Sync service for Studio projects.",
      applicationScopes: ["server"],
      propertyValues: { Region: { value: "eu-west", visibility: "Public" } },
    },
    features: [
      { code: "SSO", value: "false" },
      { code: "THEME", value: '{"accent":"#4338ca"}' },
    ],
    assets: [
      {
        metricName: "storage-gb",
        name: "Storage",
        unit: "GB",
        category: "Usage",
        metricType: "Gauge",
        meteredUsage: { consumptionPeriod: "" },
      },
    ],
  },
];

export async function seedCatalogProducts(ctx: DomainContext): Promise<void> {
  const entryIds = new Map<string, string>();
  for (const entry of catalog) {
    const existing = await ctx.db.featureCatalogEntry.findFirst({
      where: { featureCode: entry.featureCode, isDeleted: false },
      select: { id: true },
    });
    const created =
      existing ??
      (await createFeatureCatalogEntry(
        ctx,
        ZFeatureCatalogCreateRequest.parse({ lifecycleStatus: "Published", ...entry }),
      ));
    entryIds.set(entry.featureCode, created.id);
  }
  for (const { product, features, assets } of products) {
    const exists = await ctx.db.product.findFirst({
      where: { productCode: product.productCode, productVersion: product.productVersion, isDeleted: false },
    });
    if (exists) continue;
    const created = await createProduct(ctx, ZProductCreateRequest.parse(product));
    for (const feature of features) {
      await addProductFeature(
        ctx,
        created.id,
        ZProductFeatureCreateRequest.parse({
          featureCatalogId: entryIds.get(feature.code),
          value: feature.value,
        }),
      );
    }
    for (const asset of assets)
      await createMonitoredAsset(ctx, created.id, ZMonitoredAssetCreateRequest.parse(asset));
  }
}
