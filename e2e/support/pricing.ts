import { randomUUID } from "node:crypto";
import type { DomainContext } from "../../server/domain/context.ts";
import { createSuite } from "../../server/domain/pricing/suites/create-suite.ts";
import { createPlanSet } from "../../server/domain/pricing/plan-sets/create-plan-set.ts";
import { movePlanSetStatus } from "../../server/domain/pricing/plan-sets/move-plan-set-status.ts";
import { ZSuiteCreateRequest } from "../../server/domain/pricing/suites/suite.schemas.ts";
import { ZPlanSetCreateRequest } from "../../server/domain/pricing/plan-sets/plan-set.schemas.ts";
import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { createFeatureCatalogEntry } from "../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { addProductFeature } from "../../server/domain/catalog/products/add-product-feature.ts";
import {
  ZProductCreateRequest,
  ZProductFeatureCreateRequest,
} from "../../server/domain/catalog/products/product.schemas.ts";
import { ZFeatureCatalogCreateRequest } from "../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import { withTenantDb } from "./seed.ts";
import type { E2eState } from "./state.ts";

/**
 * A product with two catalog features (a Numeric one and a Metered one), made through the
 * products work's domain functions (its own e2e drives those screens): what the pricing flow prices.
 */
export async function productWithTwoFeatures(
  state: E2eState,
  product: { name: string; productCode: string },
) {
  return withTenantDb(state, async (db) => {
    const ctx: DomainContext = { tenantId: state.tenantId, db, actor: { kind: "system", id: "e2e" } };
    const seats = await createFeatureCatalogEntry(
      ctx,
      ZFeatureCatalogCreateRequest.parse({
        featureCode: `${product.productCode}_SEATS`,
        name: "Priced seats",
        featureType: "Numeric",
        units: "seats",
      }),
    );
    const calls = await createFeatureCatalogEntry(
      ctx,
      ZFeatureCatalogCreateRequest.parse({
        featureCode: `${product.productCode}_CALLS`,
        name: "Priced API calls",
        featureType: "Metered",
        metricName: "priced-calls",
        units: "calls",
      }),
    );
    const created = await createProduct(
      ctx,
      ZProductCreateRequest.parse({
        name: product.name,
        productCode: product.productCode,
        productVersion: "1",
      }),
    );
    await addProductFeature(
      ctx,
      created.id,
      ZProductFeatureCreateRequest.parse({ featureCatalogId: seats.id, value: "1" }),
    );
    await addProductFeature(
      ctx,
      created.id,
      ZProductFeatureCreateRequest.parse({ featureCatalogId: calls.id, value: "100" }),
    );
    return { productId: created.id, seatsCode: seats.featureCode, callsCode: calls.featureCode };
  });
}

/** A priced product: a suite with a Published plan set of one plan, "Team" (seats 10). */
export async function pricedProduct(state: E2eState) {
  const code = `ENT${randomUUID().slice(0, 6).toUpperCase()}`;
  const product = await productWithTwoFeatures(state, { name: `Offer product ${code}`, productCode: code });
  return withTenantDb(state, async (db) => {
    const ctx: DomainContext = { tenantId: state.tenantId, db, actor: { kind: "system", id: "e2e" } };
    const suite = await createSuite(
      ctx,
      ZSuiteCreateRequest.parse({
        code: `S-${code}`,
        name: `Suite ${code}`,
        memberProductIds: [product.productId],
      }),
    );
    const planSet = await createPlanSet(
      ctx,
      ZPlanSetCreateRequest.parse({
        suiteId: suite.id,
        name: `Plans ${code}`,
        plans: [
          {
            name: "Team",
            pricingMode: "Absolute",
            monthlyPrice: null,
            lineItems: [
              {
                productId: product.productId,
                featureValues: [{ featureCode: product.seatsCode, value: "10" }],
              },
            ],
          },
        ],
      }),
    );
    await movePlanSetStatus(ctx, planSet.id, "Published");
    return { ...product, code, planSetName: `Plans ${code}` };
  });
}
