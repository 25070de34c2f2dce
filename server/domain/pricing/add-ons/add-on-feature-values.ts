import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { notFound, validationError, type FieldIssue } from "../../../core/errors.ts";
import { validateFeatureValue } from "../../catalog/feature-catalog/feature-value.ts";
import { validateUsageTiers } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { featuresByIds, liveFeaturesByCode, normalizeFeatureCode } from "../../catalog/pricing-lookups.ts";
import { balanceMetricNames } from "../../catalog/monitored-assets/monitored-asset-rules.ts";
import type { TAddOnFeatureValueInput } from "./add-on.schemas.ts";

type PreparedValue = Omit<TAddOnFeatureValueInput, "featureCode"> & { featureCode: string };

/**
 * The add-on rules that need the catalog and the suite (the rest are in the request schema):
 * every listed feature catalog id is a live entry (404 otherwise); every value's featureCode
 * resolves to a live entry; `Replace` values are read per the entry's featureType; `Add` needs a
 * Numeric or Metered feature; `Tiered` needs a Metered feature and its tiers follow the tier
 * rules, funded only by credit balances of the suite's products. Returns the granted feature ids
 * (the listed ones, then those of the values) and the values to store.
 */
export async function prepareAddOnFeatures(
  db: TenantDbOrTx,
  input: {
    suiteId: string;
    featureCatalogIds: readonly string[];
    featureValues: readonly TAddOnFeatureValueInput[];
    /** Ids the add-on already grants: kept even if their entry has been deleted since. */
    alreadyGranted?: readonly string[];
    /** false when the values are the add-on's current ones, kept as they are (checked when written). */
    checkValues?: boolean;
  },
): Promise<{ featureCatalogIds: string[]; featureValues: PreparedValue[] }> {
  const ids = input.featureCatalogIds.map((id) => id.toLowerCase());
  const listed = await featuresByIds(db, ids);
  const missing = ids.find(
    (id) => !input.alreadyGranted?.includes(id) && (!listed.get(id) || listed.get(id)!.isDeleted),
  );
  if (missing) throw notFound(`Feature catalog entry ${missing}`);

  const members = await db.suiteMember.findMany({
    where: { suiteId: input.suiteId },
    select: { productId: true },
  });
  const [byCode, balances] = await Promise.all([
    liveFeaturesByCode(
      db,
      input.featureValues.map((v) => v.featureCode),
    ),
    balanceMetricNames(
      db,
      members.map((m) => m.productId),
    ),
  ]);
  const issues: FieldIssue[] = [];
  const granted = [...ids];
  const values = input.featureValues.map((v, i) => {
    const path = `featureValues.${i}`;
    const featureCode = normalizeFeatureCode(v.featureCode);
    const entry = byCode.get(featureCode);
    if (entry && !granted.includes(entry.id)) granted.push(entry.id);
    if (input.checkValues === false) return { ...v, featureCode };
    if (!entry) {
      issues.push({
        path: `${path}.featureCode`,
        message: `No feature catalog entry has the code ${featureCode}.`,
      });
    } else {
      if (v.operation === "Replace") {
        const problem = validateFeatureValue(entry, v.value);
        if (problem) issues.push({ path: `${path}.value`, message: problem });
      }
      if (v.operation === "Add" && entry.featureType !== "Numeric" && entry.featureType !== "Metered") {
        issues.push({
          path: `${path}.operation`,
          message: `Add applies to Numeric and Metered features; ${featureCode} is ${entry.featureType}.`,
        });
      }
      if (v.operation === "Tiered" && entry.featureType !== "Metered") {
        issues.push({
          path: `${path}.operation`,
          message: `Tiered applies to Metered features; ${featureCode} is ${entry.featureType}.`,
        });
      }
      issues.push(
        ...validateUsageTiers(v.usageTiers, { balanceMetricNames: balances, path: `${path}.usageTiers` }),
      );
    }
    return { ...v, featureCode };
  });
  if (issues.length)
    throw validationError(
      `The feature values are not valid: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  return { featureCatalogIds: granted, featureValues: values };
}

export function featureValueRows(
  tenantId: string,
  addOnId: string,
  values: readonly PreparedValue[],
): Prisma.AddOnFeatureValueCreateManyInput[] {
  return values.map((v, i) => ({
    tenantId,
    addOnId,
    sortOrder: i,
    featureCode: v.featureCode,
    operation: v.operation,
    value: v.operation === "Tiered" ? null : v.value,
    usageTiers: v.usageTiers as unknown as Prisma.InputJsonValue,
    planTargets: v.planTargets,
  }));
}
