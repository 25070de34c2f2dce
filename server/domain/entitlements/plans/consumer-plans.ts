import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";
import { isConsumerEntitlement } from "../consumer/consumer-entitlements.ts";
import { readPlans } from "../../pricing/plan-sets/plan-set-store.ts";
import { liveFeaturesByCode } from "../../catalog/pricing-lookups.ts";
import { planChangeStatuses } from "./plan-change.schemas.ts";
import { planFeatures, ZConsumerPlanFeature } from "./plan-features.ts";

/** A plan-change request of the license as its holder sees it: what was asked and how it ended. */
export const ZConsumerPlanChangeRequest = z.object({
  id: z.string().uuid(),
  requestedPlanName: z.string(),
  note: z.string().nullable(),
  status: z.enum(planChangeStatuses),
  reviewNote: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});

/** The plan-change requests shown with a license: the most recent ones. */
const RECENT_REQUESTS = 5;

export const ZConsumerPlan = z.object({
  planSetId: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  sortOrder: z.number().int(),
  pricingMode: z.string(),
  monthlyPrice: z.number().nullable(),
  currency: z.string().nullable(),
  isCurrent: z.boolean(),
  features: z.array(ZConsumerPlanFeature),
});

export const ZConsumerPlansResponse = z.object({
  entitlementId: z.string().uuid(),
  planSetId: z.string().uuid().nullable(),
  planName: z.string().nullable(),
  plans: z.array(ZConsumerPlan),
  pendingPlanChangeRequest: z
    .object({ id: z.string().uuid(), requestedPlanName: z.string(), createdAt: z.string() })
    .nullable(),
  /** The license's latest plan-change requests, newest first, with their outcome. */
  recentPlanChangeRequests: z.array(ZConsumerPlanChangeRequest),
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
  const [plansBySet, requests] = await Promise.all([
    readPlans(db, entitlement.planSetId ? [entitlement.planSetId] : []),
    db.planChangeRequest.findMany({
      where: { entitlementId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: RECENT_REQUESTS,
    }),
  ]);
  const plans = entitlement.planSetId ? (plansBySet.get(entitlement.planSetId) ?? []) : [];
  const catalog = await liveFeaturesByCode(
    db,
    plans.flatMap((p) => p.lineItems.flatMap((li) => li.featureValues.map((fv) => fv.featureCode))),
  );
  const pending = requests.find((r) => r.status === "Pending");
  return ZConsumerPlansResponse.parse({
    entitlementId,
    planSetId: entitlement.planSetId,
    planName: entitlement.planName,
    plans: plans.map((p) => ({
      planSetId: entitlement.planSetId,
      name: p.name,
      description: p.description,
      sortOrder: p.sortOrder,
      pricingMode: p.pricingMode,
      monthlyPrice: p.monthlyPrice,
      currency: p.currency,
      isCurrent: p.name === entitlement.planName,
      features: planFeatures(p.lineItems, (_productId, featureCode) => catalog.get(featureCode)),
    })),
    pendingPlanChangeRequest: pending
      ? {
          id: pending.id,
          requestedPlanName: pending.requestedPlanName,
          createdAt: pending.createdAt.toISOString(),
        }
      : null,
    recentPlanChangeRequests: requests.map((r) => ({
      id: r.id,
      requestedPlanName: r.requestedPlanName,
      note: r.note,
      status: r.status,
      reviewNote: r.reviewNote,
      reviewedAt: r.reviewedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    })),
  });
}
