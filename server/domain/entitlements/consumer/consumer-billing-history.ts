import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { pageEnvelope, pageWindow, type TListQuery } from "../../../core/pagination.ts";
import { isConsumerEntitlement } from "./consumer-entitlements.ts";
import { billingIntervals, billingMethods, billingStates, readEnum } from "../billing/billing.schemas.ts";

/** One period of a license on one plan: from its assignment to the next one (null while current). */
export const ZConsumerPlanPeriod = z.object({
  id: z.string().uuid(),
  periodStart: z.string(),
  periodEnd: z.string().nullable(),
  previousPlanName: z.string().nullable(),
  planName: z.string(),
  /** The plan's monthly price in its revision; null when the plan is not priced (or no longer exists). */
  monthlyPrice: z.number().nullable(),
  currency: z.string().nullable(),
  /** What made the change: Issued, ManualAdminAction, ApprovedPlanChangeRequest or a connector's word. */
  source: z.string(),
});

export const ZConsumerBillingHistory = z.object({
  entitlementId: z.string().uuid(),
  /** The license's billing record as its holder may see it (no contact or provider details). */
  billing: z.object({
    method: z.enum(billingMethods),
    interval: z.enum(billingIntervals),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    state: z.enum(billingStates),
    currentPeriodEnd: z.string().nullable(),
  }),
  periods: z.object({
    items: z.array(ZConsumerPlanPeriod),
    pageNumber: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
  }),
});
export type TConsumerBillingHistory = z.infer<typeof ZConsumerBillingHistory>;

/**
 * The portal's billing history of one of the signed-in user's licenses (else 404): its billing
 * record (method, interval, amount, currency, state) and its plan-assignment history as periods,
 * newest first, each with the plan's price. A license without a billing record reads as the
 * defaults an entitlement is made with (nothing is written by a read of the portal).
 */
export async function consumerBillingHistory(
  ctx: DomainContext,
  entitlementId: string,
  query: Pick<TListQuery, "pageNumber" | "pageSize">,
): Promise<TConsumerBillingHistory> {
  if (!(await isConsumerEntitlement(ctx, entitlementId))) throw notFound("Entitlement");
  const [billing, totalCount] = await Promise.all([
    ctx.db.entitlementBilling.findFirst({ where: { entitlementId } }),
    ctx.db.entitlementPlanHistory.count({ where: { entitlementId } }),
  ]);
  const { skip, take } = pageWindow(query);
  // One more entry than the page, newest first: the entry before a period ends it.
  const rows = await ctx.db.entitlementPlanHistory.findMany({
    where: { entitlementId },
    orderBy: [{ changedAt: "desc" }, { id: "desc" }],
    skip: Math.max(skip - 1, 0),
    take: take + (skip > 0 ? 1 : 0),
  });
  const newer = skip > 0 ? rows.shift() : undefined;
  const plans = await ctx.db.usagePlan.findMany({
    where: {
      OR: rows.map((r) => ({ planSetId: r.newPlanSetId, name: r.newPlanName })),
    },
    select: { planSetId: true, name: true, monthlyPrice: true, currency: true },
  });
  const items = rows.map((r, i) => {
    const plan = plans.find((p) => p.planSetId === r.newPlanSetId && p.name === r.newPlanName);
    const end = i === 0 ? newer?.changedAt : rows[i - 1].changedAt;
    return {
      id: r.id,
      periodStart: r.changedAt.toISOString(),
      periodEnd: end?.toISOString() ?? null,
      previousPlanName: r.previousPlanName,
      planName: r.newPlanName,
      monthlyPrice: plan?.monthlyPrice?.toNumber() ?? null,
      currency: plan?.currency ?? null,
      source: r.source,
    };
  });
  return {
    entitlementId,
    billing: {
      method: readEnum(billingMethods, billing?.method ?? "Unspecified"),
      interval: readEnum(billingIntervals, billing?.interval ?? "Unspecified"),
      amount: billing?.amount?.toNumber() ?? null,
      currency: billing?.currency ?? null,
      state: readEnum(billingStates, billing?.state ?? "None"),
      currentPeriodEnd: billing?.currentPeriodEnd?.toISOString() ?? null,
    },
    periods: pageEnvelope(items, query, totalCount),
  };
}
