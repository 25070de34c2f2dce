import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { liveFeaturesByCode, productsByIds } from "../../catalog/pricing-lookups.ts";
import { readPlans } from "./plan-set-store.ts";
import type { TPlanSetResponse, TPlanSetStatus } from "./plan-set.schemas.ts";
import { iso } from "../../../core/iso-date.ts";

export const planSetInclude = { suite: { select: { name: true, isImplicit: true } } } as const;

type PlanSetRow = {
  id: string;
  suiteId: string;
  revision: number;
  sourcePlanSetId: string | null;
  name: string;
  description: string;
  status: string;
  revisionDate: Date;
  publishedAt: Date | null;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  suite: { name: string; isImplicit: boolean };
};

/**
 * Responses for plan-set revisions with their plans. docs/api.md: featureName and units come from
 * the catalog at read time and are null when the featureCode resolves to no live entry.
 */
export async function toPlanSetResponses(
  db: TenantDbOrTx,
  rows: readonly PlanSetRow[],
): Promise<TPlanSetResponse[]> {
  const plansBySet = await readPlans(
    db,
    rows.map((r) => r.id),
  );
  const allPlans = [...plansBySet.values()].flat();
  const items = allPlans.flatMap((p) => p.lineItems);
  const [features, products] = await Promise.all([
    liveFeaturesByCode(
      db,
      items.flatMap((li) => li.featureValues.map((fv) => fv.featureCode)),
    ),
    productsByIds(
      db,
      items.map((li) => li.productId),
    ),
  ]);
  return rows.map((row) => ({
    id: row.id,
    suiteId: row.suiteId,
    suiteName: row.suite.name,
    suiteIsImplicit: row.suite.isImplicit,
    name: row.name,
    description: row.description,
    status: row.status as TPlanSetStatus,
    revision: row.revision,
    revisionDate: row.revisionDate.toISOString(),
    sourcePlanSetId: row.sourcePlanSetId,
    publishedAt: iso(row.publishedAt),
    archivedAt: iso(row.archivedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    plans: (plansBySet.get(row.id) ?? []).map((plan) => ({
      id: plan.id,
      name: plan.name,
      description: plan.description,
      sortOrder: plan.sortOrder,
      pricingMode: plan.pricingMode,
      monthlyPrice: plan.monthlyPrice,
      currency: plan.currency,
      relativeWeight: plan.relativeWeight,
      lineItems: plan.lineItems.map((item) => ({
        productId: item.productId,
        productCode: products.get(item.productId)?.productCode ?? null,
        included: item.included,
        featureValues: item.featureValues.map((fv) => {
          const entry = features.get(fv.featureCode);
          return {
            featureCode: fv.featureCode,
            metricName: fv.metricName,
            featureName: entry?.name ?? null,
            units: entry?.units ?? null,
            enforcementType: fv.enforcementType,
            value: fv.value,
            usageTiers: fv.usageTiers,
          };
        }),
      })),
    })),
  }));
}

export async function readPlanSet(db: TenantDbOrTx, id: string): Promise<TPlanSetResponse | null> {
  const row = await db.usagePlanSet.findUnique({ where: { id }, include: planSetInclude });
  return row ? (await toPlanSetResponses(db, [row]))[0] : null;
}
