import { testDb, type TestTenant } from "./api.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import type { DomainContext } from "../../server/domain/context.ts";
import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { createFeatureCatalogEntry } from "../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { createMonitoredAsset } from "../../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZProductCreateRequest } from "../../server/domain/catalog/products/product.schemas.ts";
import { ZFeatureCatalogCreateRequest } from "../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import { ZMonitoredAssetCreateRequest } from "../../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";

/**
 * Products, catalog entries and credit balances for the pricing tests, made through the products
 * work's own domain functions (so they are exactly what its API would make).
 */
export function catalogFixture(tenant: TestTenant) {
  const ctx: DomainContext = {
    tenantId: tenant.tenantId,
    db: tenantDb(testDb(), tenant.tenantId),
    actor: { kind: "system", id: "test" },
  };
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`.toUpperCase();
  return {
    ctx,
    async product(fields: { name?: string; productCode?: string; productVersion?: string } = {}) {
      const code = fields.productCode ?? `P-${unique()}`;
      return createProduct(
        ctx,
        ZProductCreateRequest.parse({
          name: fields.name ?? `Product ${code}`,
          productCode: code,
          productVersion: fields.productVersion ?? "",
        }),
      );
    },
    async feature(fields: {
      featureType: string;
      featureCode?: string;
      metricName?: string | null;
      units?: string | null;
      enumOptions?: { value: string }[];
      name?: string;
    }) {
      const code = fields.featureCode ?? `F_${unique()}`;
      return createFeatureCatalogEntry(
        ctx,
        ZFeatureCatalogCreateRequest.parse({
          featureCode: code,
          name: fields.name ?? `Feature ${code}`,
          featureType: fields.featureType,
          metricName: fields.metricName ?? null,
          units: fields.units ?? null,
          enumOptions: fields.enumOptions ?? null,
        }),
      );
    },
    /** A credit balance on the product: what a tier's fundingBalanceMetric may name. */
    async creditBalance(productId: string, metricName: string) {
      return createMonitoredAsset(
        ctx,
        productId,
        ZMonitoredAssetCreateRequest.parse({
          metricName,
          name: `Credits ${metricName}`,
          balanceUsage: { name: "Credits", initialCreditAmount: 1000 },
        }),
      );
    },
  };
}
