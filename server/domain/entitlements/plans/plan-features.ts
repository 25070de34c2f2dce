import { z } from "zod";

/** What a plan gives, for the side-by-side comparison: each feature value of its included products. */
export const ZConsumerPlanFeature = z.object({
  featureCode: z.string(),
  featureName: z.string().nullable(),
  units: z.string().nullable(),
  /** The value as the plan sets it; null for tiered (usage-priced) features. */
  value: z.string().nullable(),
  enforcementType: z.string(),
});
export type TConsumerPlanFeature = z.infer<typeof ZConsumerPlanFeature>;

type LineItem = {
  productId: string;
  included: boolean;
  featureValues: readonly { featureCode: string; value: string | null; enforcementType: string }[];
};

/**
 * A plan's features as a customer compares plans: the feature values of its included products
 * only, named from the catalog (`catalogEntry`). The portal's plans of a license and the back
 * office's customer preview of a plan set both show this.
 */
export function planFeatures(
  lineItems: readonly LineItem[],
  catalogEntry: (
    productId: string,
    featureCode: string,
  ) => { name: string; units: string | null } | undefined,
): TConsumerPlanFeature[] {
  return lineItems
    .filter((li) => li.included)
    .flatMap((li) =>
      li.featureValues.map((fv) => {
        const entry = catalogEntry(li.productId, fv.featureCode);
        return {
          featureCode: fv.featureCode,
          featureName: entry?.name ?? null,
          units: entry?.units ?? null,
          value: fv.value,
          enforcementType: fv.enforcementType,
        };
      }),
    );
}
