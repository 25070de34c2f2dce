import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";
import { isConsumerEntitlement } from "../consumer/consumer-entitlements.ts";

export const ZConsumerPlan = z.object({
  planSetId: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  sortOrder: z.number().int(),
  pricingMode: z.string(),
  monthlyPrice: z.number().nullable(),
  currency: z.string().nullable(),
  isCurrent: z.boolean(),
});

export const ZConsumerPlansResponse = z.object({
  entitlementId: z.string().uuid(),
  planSetId: z.string().uuid().nullable(),
  planName: z.string().nullable(),
  plans: z.array(ZConsumerPlan),
  pendingPlanChangeRequest: z
    .object({ id: z.string().uuid(), requestedPlanName: z.string(), createdAt: z.string() })
    .nullable(),
});

/**
 * docs/api.md GET /consumer/me/entitlements/{entitlementId}/plans: the plans behind a license the
 * signed-in user holds (directly or through an organization): the plans of its plan-set revision,
 * the current one marked, and a pending plan-change request if there is one. Another user's
 * entitlement is not found.
 */
export async function listConsumerEntitlementPlans(ctx: DomainContext, entitlementId: string) {
  if (!(await isConsumerEntitlement(ctx, entitlementId))) throw notFound("Entitlement");
  const entitlement = await ctx.db.entitlement.findUniqueOrThrow({
    where: { id: entitlementId },
    select: { id: true, planSetId: true, planName: true },
  });
  return plansOfEntitlement(ctx.db, entitlement);
}

/** The plans response for an entitlement the caller has already shown to be the user's. */
export async function plansOfEntitlement(
  db: TenantDbOrTx,
  entitlement: { id: string; planSetId: string | null; planName: string | null },
) {
  const entitlementId = entitlement.id;
  const [plans, pending] = await Promise.all([
    entitlement.planSetId
      ? db.usagePlan.findMany({
          where: { planSetId: entitlement.planSetId },
          orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
        })
      : Promise.resolve([]),
    db.planChangeRequest.findFirst({
      where: { entitlementId, status: "Pending" },
      select: { id: true, requestedPlanName: true, createdAt: true },
    }),
  ]);
  return ZConsumerPlansResponse.parse({
    entitlementId,
    planSetId: entitlement.planSetId,
    planName: entitlement.planName,
    plans: plans.map((p) => ({
      planSetId: p.planSetId,
      name: p.name,
      description: p.description,
      sortOrder: p.sortOrder,
      pricingMode: p.pricingMode,
      monthlyPrice: p.monthlyPrice === null ? null : Number(p.monthlyPrice),
      currency: p.currency,
      isCurrent: p.name === entitlement.planName,
    })),
    pendingPlanChangeRequest: pending
      ? {
          id: pending.id,
          requestedPlanName: pending.requestedPlanName,
          createdAt: pending.createdAt.toISOString(),
        }
      : null,
  });
}
