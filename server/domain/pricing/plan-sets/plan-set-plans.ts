import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { validationError, type FieldIssue } from "../../../core/errors.ts";
import { validateFeatureValue } from "../../catalog/feature-catalog/feature-value.ts";
import { validateUsageTiers } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { liveFeaturesByCode, normalizeFeatureCode } from "../../catalog/pricing-lookups.ts";
import { balanceMetricNames } from "../../catalog/monitored-assets/monitored-asset-rules.ts";
import type { TPlanInput } from "./plan-set.schemas.ts";
import type { StoredPlan } from "./plan-set-store.ts";

/**
 * The plan rules that need the suite and the catalog (docs/api.md "Usage plan set", "Line item",
 * "Feature value"); the rest are in the request schema. Returns the plans as they are stored, or
 * throws one 400 listing every problem with its field path.
 *
 * - Every line item names a current member of the suite, once per plan. When a plan set is
 *   created for a suite of one member, a line item without productId gets that member.
 * - A feature value's featureCode resolves to a live catalog entry (codes are stored uppercase);
 *   metricName is the entry's metric (taken from the entry when omitted); value is read per the
 *   entry's featureType; usageTiers only on Metered features, per the tier rules, funded only by
 *   credit balances of the suite's products; Percentage enforcement needs a positive value (the
 *   100% base).
 */
export async function preparePlans(
  db: TenantDbOrTx,
  input: { plans: readonly TPlanInput[]; memberIds: readonly string[]; stampSoleMember: boolean },
): Promise<StoredPlan[]> {
  const issues: FieldIssue[] = [];
  const at = (path: string, message: string) => issues.push({ path, message });
  const codes = input.plans.flatMap((p) =>
    p.lineItems.flatMap((li) => li.featureValues.map((fv) => fv.featureCode)),
  );
  const [features, balances] = await Promise.all([
    liveFeaturesByCode(db, codes),
    balanceMetricNames(db, input.memberIds),
  ]);
  const soleMember = input.stampSoleMember && input.memberIds.length === 1 ? input.memberIds[0] : null;

  const plans = input.plans.map((plan, i): StoredPlan => {
    const seenProducts = new Set<string>();
    return {
      name: plan.name,
      description: plan.description,
      sortOrder: plan.sortOrder ?? i,
      pricingMode: plan.pricingMode,
      monthlyPrice: plan.monthlyPrice,
      currency: plan.currency,
      relativeWeight: plan.relativeWeight,
      lineItems: plan.lineItems.map((item, j) => {
        const itemPath = `plans.${i}.lineItems.${j}`;
        const productId = item.productId?.toLowerCase() ?? soleMember;
        if (!productId) {
          at(`${itemPath}.productId`, "A line item names the suite member it configures (productId).");
        } else if (!input.memberIds.includes(productId)) {
          at(`${itemPath}.productId`, `Product ${productId} is not a member of the suite.`);
        } else if (seenProducts.has(productId)) {
          at(`${itemPath}.productId`, "A plan has one line item per product.");
        }
        if (productId) seenProducts.add(productId);
        const seenCodes = new Set<string>();
        return {
          productId: productId ?? "",
          included: item.included,
          featureValues: item.featureValues.map((fv, k) => {
            const path = `${itemPath}.featureValues.${k}`;
            const featureCode = normalizeFeatureCode(fv.featureCode);
            if (seenCodes.has(featureCode))
              at(`${path}.featureCode`, `${featureCode} has one value per line item.`);
            seenCodes.add(featureCode);
            const entry = features.get(featureCode);
            if (!entry) {
              at(`${path}.featureCode`, `No feature catalog entry has the code ${featureCode}.`);
              return {
                featureCode,
                metricName: fv.metricName ?? null,
                enforcementType: fv.enforcementType,
                value: fv.value,
                usageTiers: fv.usageTiers,
              };
            }
            if (fv.metricName && entry.metricName && fv.metricName !== entry.metricName) {
              at(
                `${path}.metricName`,
                `${featureCode} reports under the metric "${entry.metricName}", not "${fv.metricName}".`,
              );
            }
            if (fv.metricName && !entry.metricName && entry.featureType !== "Metered") {
              at(`${path}.metricName`, `${featureCode} is not metered; it takes no metricName.`);
            }
            const valueProblem = validateFeatureValue(entry, fv.value);
            if (valueProblem) at(`${path}.value`, valueProblem);
            if (fv.usageTiers.length && entry.featureType !== "Metered") {
              at(
                `${path}.usageTiers`,
                `Usage tiers apply to Metered features; ${featureCode} is ${entry.featureType}.`,
              );
            }
            issues.push(
              ...validateUsageTiers(fv.usageTiers, {
                balanceMetricNames: balances,
                path: `${path}.usageTiers`,
              }),
            );
            if (fv.enforcementType === "Percentage" && !(fv.value !== null && Number(fv.value) > 0)) {
              at(
                `${path}.value`,
                "Percentage enforcement needs a positive value: the quantity tiers are percentages of.",
              );
            }
            return {
              featureCode,
              metricName: fv.metricName ?? entry.metricName,
              enforcementType: fv.enforcementType,
              value: fv.value,
              usageTiers: fv.usageTiers,
            };
          }),
        };
      }),
    };
  });
  if (issues.length) {
    throw validationError(
      `The plans are not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  }
  return plans;
}
