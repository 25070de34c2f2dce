import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../../server/domain/catalog/products/product.schemas.ts";
import { createMonitoredAsset } from "../../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZMonitoredAssetCreateRequest } from "../../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { createSuite } from "../../server/domain/pricing/suites/create-suite.ts";
import { ZSuiteCreateRequest } from "../../server/domain/pricing/suites/suite.schemas.ts";
import { createPlanSet } from "../../server/domain/pricing/plan-sets/create-plan-set.ts";
import { movePlanSetStatus } from "../../server/domain/pricing/plan-sets/move-plan-set-status.ts";
import { ZPlanSetCreateRequest } from "../../server/domain/pricing/plan-sets/plan-set.schemas.ts";
import type { DomainContext } from "../../server/domain/context.ts";
import { seedConsumerCustomer, seedEntitlement } from "./seed.ts";
import type { E2eState } from "./state.ts";

/**
 * A license of the portal's consumer on plan Basic (free) of a published plan set that also has
 * Pro (EUR 49 /month), with a credit balance of 40 that the consumer may add to: at most 100
 * credits a grant, 150 a month. `prefix` names the product, suite and plan set; `credits` the balance.
 */
export async function plannedLicense(
  ctx: DomainContext,
  state: E2eState,
  {
    name,
    prefix,
    suffix,
    credits,
  }: { name: string; prefix: string; suffix: string; credits: { metricName: string; name: string } },
) {
  const product = await createProduct(
    ctx,
    ZProductCreateRequest.parse({
      name: `${prefix} ${suffix}`,
      productCode: `${prefix.toUpperCase()}-${suffix}`,
    }),
  );
  await createMonitoredAsset(
    ctx,
    product.id,
    ZMonitoredAssetCreateRequest.parse({
      metricName: credits.metricName,
      name: credits.name,
      balanceUsage: { name: credits.name, initialCreditAmount: 40 },
    }),
  );
  const suite = await createSuite(
    ctx,
    ZSuiteCreateRequest.parse({
      code: `S-${suffix}`,
      name: `${prefix} suite ${suffix}`,
      memberProductIds: [product.id],
    }),
  );
  const planSet = await createPlanSet(
    ctx,
    ZPlanSetCreateRequest.parse({
      suiteId: suite.id,
      name: `${prefix} plans`,
      plans: [
        {
          name: "Basic",
          pricingMode: "Absolute",
          monthlyPrice: 0,
          currency: "EUR",
          lineItems: [{ productId: product.id }],
        },
        {
          name: "Pro",
          pricingMode: "Absolute",
          monthlyPrice: 49,
          currency: "EUR",
          lineItems: [{ productId: product.id }],
        },
      ],
    }),
  );
  await movePlanSetStatus(ctx, planSet.id, "Published");
  const customer = await seedConsumerCustomer(ctx, state.consumer.email);
  const entitlement = await seedEntitlement(ctx, {
    name,
    productIds: [product.id],
    planSetId: planSet.id,
    planName: "Basic",
    customerId: customer.id,
    consumersMayGrantCredits: true,
    consumerGrantLimitPerGrant: 100,
    consumerGrantLimitPerMonth: 150,
    claimBasedActivation: {
      leaseTime: "PT1H",
      gracePeriod: "P1D",
      numberOfSeats: 2,
      isFloatingLicense: false,
    },
  });
  return {
    productId: product.id,
    suiteId: suite.id,
    planSetId: planSet.id,
    customerId: customer.id,
    entitlementId: entitlement.id,
  };
}
