import { randomUUID } from "node:crypto";
import type { TenantDbOrTx, TenantTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { now } from "../../../clock.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";

/** A plan as stored: validated, codes normalised, every line item naming its product. */
export type StoredFeatureValue = {
  featureCode: string;
  metricName: string | null;
  enforcementType: string;
  value: string | null;
  usageTiers: TUsageTier[];
};
export type StoredLineItem = { productId: string; included: boolean; featureValues: StoredFeatureValue[] };
export type StoredPlan = {
  name: string;
  description: string;
  sortOrder: number;
  pricingMode: string;
  monthlyPrice: number | null;
  currency: string | null;
  relativeWeight: number | null;
  lineItems: StoredLineItem[];
};

/** Writes a revision's plans: three statements whatever the number of plans. */
export async function writePlans(
  tx: TenantDbOrTx,
  tenantId: string,
  planSetId: string,
  plans: readonly StoredPlan[],
): Promise<void> {
  const planRows: Prisma.UsagePlanCreateManyInput[] = [];
  const itemRows: Prisma.UsagePlanLineItemCreateManyInput[] = [];
  const valueRows: Prisma.UsagePlanFeatureValueCreateManyInput[] = [];
  for (const plan of plans) {
    const planId = randomUUID();
    planRows.push({
      id: planId,
      tenantId,
      planSetId,
      name: plan.name,
      description: plan.description,
      sortOrder: plan.sortOrder,
      pricingMode: plan.pricingMode,
      monthlyPrice: plan.monthlyPrice,
      currency: plan.currency,
      relativeWeight: plan.relativeWeight,
    });
    plan.lineItems.forEach((item, i) => {
      const lineItemId = randomUUID();
      itemRows.push({
        id: lineItemId,
        tenantId,
        planSetId,
        planId,
        productId: item.productId,
        sortOrder: i,
        included: item.included,
      });
      item.featureValues.forEach((fv, j) => {
        valueRows.push({
          id: randomUUID(),
          tenantId,
          planSetId,
          lineItemId,
          sortOrder: j,
          featureCode: fv.featureCode,
          metricName: fv.metricName,
          enforcementType: fv.enforcementType,
          value: fv.value,
          usageTiers: fv.usageTiers as unknown as Prisma.InputJsonValue,
        });
      });
    });
  }
  if (planRows.length) await tx.usagePlan.createMany({ data: planRows });
  if (itemRows.length) await tx.usagePlanLineItem.createMany({ data: itemRows });
  if (valueRows.length) await tx.usagePlanFeatureValue.createMany({ data: valueRows });
}

/** Removes a revision's plans, children first (each by the indexed planSetId). */
export async function deletePlans(tx: TenantDbOrTx, planSetId: string): Promise<void> {
  await tx.usagePlanFeatureValue.deleteMany({ where: { planSetId } });
  await tx.usagePlanLineItem.deleteMany({ where: { planSetId } });
  await tx.usagePlan.deleteMany({ where: { planSetId } });
}

/** The plans of some revisions, ordered (plans by sortOrder then name; items and values as written). */
export async function readPlans(db: TenantDbOrTx, planSetIds: readonly string[]) {
  if (planSetIds.length === 0) return new Map<string, (StoredPlan & { id: string })[]>();
  const ids = [...planSetIds];
  const [plans, items, values] = await Promise.all([
    db.usagePlan.findMany({
      where: { planSetId: { in: ids } },
      orderBy: [{ sortOrder: "asc" }, { name: "asc" }, { id: "asc" }],
    }),
    db.usagePlanLineItem.findMany({
      where: { planSetId: { in: ids } },
      orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    }),
    db.usagePlanFeatureValue.findMany({
      where: { planSetId: { in: ids } },
      orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    }),
  ]);
  const valuesByItem = groupBy(values, (v) => v.lineItemId);
  const itemsByPlan = groupBy(items, (i) => i.planId);
  const result = new Map<string, (StoredPlan & { id: string })[]>(ids.map((id) => [id, []]));
  for (const plan of plans) {
    result.get(plan.planSetId)!.push({
      id: plan.id,
      name: plan.name,
      description: plan.description,
      sortOrder: plan.sortOrder,
      pricingMode: plan.pricingMode,
      monthlyPrice: plan.monthlyPrice === null ? null : plan.monthlyPrice.toNumber(),
      currency: plan.currency,
      relativeWeight: plan.relativeWeight,
      lineItems: (itemsByPlan.get(plan.id) ?? []).map((item) => ({
        productId: item.productId,
        included: item.included,
        featureValues: (valuesByItem.get(item.id) ?? []).map((fv) => ({
          featureCode: fv.featureCode,
          metricName: fv.metricName,
          enforcementType: fv.enforcementType,
          value: fv.value,
          usageTiers: (Array.isArray(fv.usageTiers) ? fv.usageTiers : []) as unknown as TUsageTier[],
        })),
      })),
    });
  }
  return result;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/** Creates a Draft revision at the end of the suite's timeline. Call with the suite locked. */
export async function createDraftRevision(
  tx: TenantTx,
  tenantId: string,
  input: {
    suiteId: string;
    name: string;
    description: string;
    sourcePlanSetId: string | null;
    plans: readonly StoredPlan[];
  },
) {
  const last = await tx.usagePlanSet.aggregate({
    where: { suiteId: input.suiteId },
    _max: { revision: true },
  });
  const timestamp = now();
  const row = await tx.usagePlanSet.create({
    data: {
      tenantId,
      suiteId: input.suiteId,
      revision: (last._max.revision ?? 0) + 1,
      sourcePlanSetId: input.sourcePlanSetId,
      name: input.name,
      description: input.description,
      status: "Draft",
      revisionDate: timestamp,
    },
  });
  await writePlans(tx, tenantId, row.id, input.plans);
  return row;
}
