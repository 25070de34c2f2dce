/**
 * Demo pricing for `npm run seed`: a suite of two products, a published plan set with three plans
 * (metered tiers whose overage draws on a credit balance, and credits per plan), an add-on and a
 * running rating campaign. Everything goes through the domain functions, as the API would.
 * Safe to run again: nothing is made when the demo suite exists.
 */
import type { DomainContext } from "../../server/domain/context.ts";
import { createSuite } from "../../server/domain/pricing/suites/create-suite.ts";
import { createPlanSet } from "../../server/domain/pricing/plan-sets/create-plan-set.ts";
import { movePlanSetStatus } from "../../server/domain/pricing/plan-sets/move-plan-set-status.ts";
import { createAddOn } from "../../server/domain/pricing/add-ons/create-add-on.ts";
import { createRatingCampaign } from "../../server/domain/catalog/rating-campaigns/create-rating-campaign.ts";
import { createFeatureCatalogEntry } from "../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { createMonitoredAsset } from "../../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZFeatureCatalogCreateRequest } from "../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import { ZMonitoredAssetCreateRequest } from "../../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { ZPlanSetCreateRequest } from "../../server/domain/pricing/plan-sets/plan-set.schemas.ts";
import { ZAddOnCreateRequest } from "../../server/domain/pricing/add-ons/add-on.schemas.ts";
import { ZRatingCampaignCreateRequest } from "../../server/domain/catalog/rating-campaigns/rating-campaign.schemas.ts";
import { ZSuiteCreateRequest } from "../../server/domain/pricing/suites/suite.schemas.ts";
import { now } from "../../server/clock.ts";

export const DEMO_SUITE_CODE = "STUDIO-SUITE";
const CREDIT_METRIC = "ai-credits";

/** The catalog entries the demo plans configure, made unless an entry of that code exists. */
const demoFeatures = [
  { featureCode: "SEATS", name: "Seats", featureType: "Numeric", units: "seats" },
  {
    featureCode: "API_CALLS",
    name: "API calls",
    featureType: "Metered",
    metricName: "api-calls",
    units: "calls",
  },
  {
    featureCode: "AI_CREDITS",
    name: "AI credits",
    featureType: "Metered",
    metricName: CREDIT_METRIC,
    units: "credits",
  },
  { featureCode: "SSO", name: "Single sign-on", featureType: "Boolean", units: null },
  {
    featureCode: "SUPPORT_TIER",
    name: "Support",
    featureType: "Enumeration",
    units: null,
    enumOptions: [{ value: "community" }, { value: "standard" }, { value: "priority" }],
  },
] as const;

async function ensureFeatures(ctx: DomainContext): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const feature of demoFeatures) {
    const existing = await ctx.db.featureCatalogEntry.findFirst({
      where: { featureCode: feature.featureCode, isDeleted: false },
      select: { id: true },
    });
    const entry =
      existing ??
      (await createFeatureCatalogEntry(
        ctx,
        ZFeatureCatalogCreateRequest.parse({ ...feature, lifecycleStatus: "Published" }),
      ));
    ids.set(feature.featureCode, entry.id);
  }
  return ids;
}

/** The credit balance metered overage draws on, on the suite's first product. */
async function ensureCreditBalance(ctx: DomainContext, productId: string): Promise<void> {
  const existing = await ctx.db.monitoredAsset.findFirst({
    where: { productId, ownerKind: "Product", metricName: CREDIT_METRIC },
  });
  if (existing) return;
  await createMonitoredAsset(
    ctx,
    productId,
    ZMonitoredAssetCreateRequest.parse({
      metricName: CREDIT_METRIC,
      name: "AI credits",
      unit: "credits",
      balanceUsage: {
        name: "AI credits",
        unit: "credits",
        initialCreditAmount: 500,
        usageQuota: [{ endUsage: 50, name: "Almost out", quotaUsageLevel: "High" }],
      },
    }),
  );
}

const apiTiers = (included: number) => [
  { name: "Included", startUsage: 0, endUsage: included, quotaUsageLevel: "None", quotaUsagePolicy: "None" },
  {
    name: "Overage",
    startUsage: included,
    endUsage: null,
    creditsPerUnitOfConsumption: 0.01,
    quotaUsageLevel: "Low",
    quotaUsagePolicy: "AllowWithOverage",
    fundingBalanceMetric: CREDIT_METRIC,
  },
];

export async function seedCatalogPricing(
  ctx: DomainContext,
  products: readonly { id: string; name: string }[],
): Promise<{ suiteId: string } | null> {
  if (products.length < 2) return null;
  const existing = await ctx.db.suite.findFirst({ where: { code: DEMO_SUITE_CODE }, select: { id: true } });
  if (existing) return { suiteId: existing.id };
  const [main, companion] = products;
  const features = await ensureFeatures(ctx);
  await ensureCreditBalance(ctx, main.id);

  const suite = await createSuite(
    ctx,
    ZSuiteCreateRequest.parse({
      code: DEMO_SUITE_CODE,
      name: "Studio Suite",
      description: `${main.name} with ${companion.name}, sold together.`,
      memberProductIds: [main.id, companion.id],
    }),
  );

  const plan = (
    name: string,
    price: number,
    seats: number,
    apiCalls: number,
    credits: number,
    support: string,
    sso: boolean,
  ) => ({
    name,
    description: price === 0 ? "Free for small teams" : `${seats} seats`,
    pricingMode: "Absolute",
    monthlyPrice: price,
    currency: price > 0 ? "EUR" : null,
    lineItems: [
      {
        productId: main.id,
        featureValues: [
          { featureCode: "SEATS", value: String(seats) },
          { featureCode: "API_CALLS", value: String(apiCalls), usageTiers: apiTiers(apiCalls) },
          { featureCode: "AI_CREDITS", value: String(credits) },
          { featureCode: "SUPPORT_TIER", value: support },
        ],
      },
      {
        productId: companion.id,
        included: price > 0,
        featureValues: [{ featureCode: "SSO", value: String(sso) }],
      },
    ],
  });
  const planSet = await createPlanSet(
    ctx,
    ZPlanSetCreateRequest.parse({
      suiteId: suite.id,
      name: "2027 plans",
      description: "Monthly plans; API overage is paid from AI credits.",
      plans: [
        plan("Starter", 0, 3, 1_000, 100, "community", false),
        plan("Team", 29, 10, 20_000, 1_000, "standard", false),
        plan("Business", 99, 50, 100_000, 10_000, "priority", true),
      ],
    }),
  );
  await movePlanSetStatus(ctx, planSet.id, "Published");

  await createAddOn(
    ctx,
    ZAddOnCreateRequest.parse({
      suiteId: suite.id,
      code: "POWER-PACK",
      name: "Power pack",
      description: "More seats and API calls for busy teams.",
      featureCatalogIds: [features.get("SSO")],
      featureValues: [
        { featureCode: "SEATS", value: "10", operation: "Add", planTargets: ["Team", "Business"] },
        { featureCode: "API_CALLS", operation: "Tiered", usageTiers: apiTiers(50_000) },
        { featureCode: "SSO", value: "true", operation: "Replace", planTargets: ["Team"] },
      ],
    }),
  );

  const start = now();
  await createRatingCampaign(
    ctx,
    ZRatingCampaignCreateRequest.parse({
      name: "Spring feature feedback",
      description: "Which features matter most?",
      isEnabled: true,
      startsAt: new Date(start.getTime() - 86_400_000).toISOString(),
      endsAt: new Date(start.getTime() + 60 * 86_400_000).toISOString(),
      targets: [
        {
          featureCatalogId: features.get("API_CALLS"),
          question: "How useful is the API for you?",
          priority: 1,
        },
        { featureCatalogId: features.get("SSO"), question: null, priority: 2 },
        { featureCatalogId: features.get("SEATS"), question: null, priority: null },
      ],
    }),
  );
  return { suiteId: suite.id };
}
