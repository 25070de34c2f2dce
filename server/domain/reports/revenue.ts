import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { queryReport, streamRows } from "../../db/report-queries.ts";
import { now } from "../../clock.ts";
import { productsByIds } from "../catalog/pricing-lookups.ts";
import {
  exportFilename,
  resolvePeriod,
  ZReportPeriodQuery,
  type TReportPeriodQuery,
} from "./report-period.ts";
import { currencyDigits, microsToNumber, toMicros } from "./report-sql.ts";
import { csvExport } from "./report-export.ts";
import { REVENUE_BY_PLAN_SQL, REVENUE_LINES_SQL } from "./revenue-sql.ts";
import { revenueOverTime, ZMrrMonth, ZRevenueByCustomer } from "./revenue-over-time.ts";

/**
 * Revenue by plan and by product over a period (docs/decisions.md "Reports"), from the
 * entitlements' plan-assignment history: each history entry holds its plan from its changedAt to
 * the next entry's, cut to the entitlement's time in force (from notValidBeforeDateTime, until its
 * expiration or archiving, less the lapses a renewal ended) and to the period. Absolute plans earn
 * monthlyPrice × months active in their currency; plans without a price are listed apart, never
 * as free. Relative plans turn relativeWeight × months active into shares of the total; plans
 * without a weight are listed apart. Trials earn nothing and are counted apart. Draft
 * entitlements were never issued and do not count.
 */
export const ZRevenueReportQuery = ZReportPeriodQuery;

type PlanRow = {
  planSetId: string | null;
  planName: string | null;
  trial: boolean;
  isTotal: boolean;
  entitlementCount: number;
  months: string;
  planId: string | null;
  pricingMode: string | null;
  monthlyPrice: string | null;
  currency: string | null;
  relativeWeight: number | null;
  revenue: string | null;
};

const ZPlanRef = z.object({
  planSetId: z.string().uuid(),
  planSetName: z.string().nullable(),
  revision: z.number().int().nullable(),
  suiteId: z.string().uuid().nullable(),
  suiteName: z.string().nullable(),
  planName: z.string(),
  /** Null when the plan is no longer found in its plan-set revision. */
  pricingMode: z.enum(["Absolute", "Relative"]).nullable(),
  entitlementCount: z.number().int(),
  /** Calendar months active in the period, summed over the plan's entitlements (4 decimals). */
  monthsActive: z.number(),
});
const ZProductRef = z.object({
  productId: z.string().uuid().nullable(),
  productCode: z.string().nullable(),
  productName: z.string().nullable(),
});

export const ZRevenueReport = z.object({
  from: z.string(),
  to: z.string(),
  generatedAt: z.string(),
  /** Revenue per currency (Absolute, priced plans). */
  totals: z.array(z.object({ currency: z.string(), revenue: z.number() })),
  /** Absolute plans with a monthlyPrice (0 = free: revenue 0); revenue in the currency's minor units. */
  revenueByPlan: z.array(
    ZPlanRef.extend({ monthlyPrice: z.number(), currency: z.string().nullable(), revenue: z.number() }),
  ),
  /** Each plan's revenue split equally among the products its included line items configure. */
  revenueByProduct: z.array(ZProductRef.extend({ currency: z.string(), revenue: z.number() })),
  /** Absolute plans whose monthlyPrice is null (not priced yet) or no longer found: no revenue. */
  unpricedPlans: z.array(ZPlanRef),
  /** Relative plans with a weight: weight × months active as a share of the total of them all. */
  relativeSharesByPlan: z.array(
    ZPlanRef.extend({ relativeWeight: z.number(), weightedMonths: z.number(), share: z.number() }),
  ),
  relativeSharesByProduct: z.array(ZProductRef.extend({ share: z.number() })),
  /** Relative plans whose relativeWeight is null (not weighted yet): no share. */
  unweightedPlans: z.array(ZPlanRef),
  /** Trial entitlements (isEntitlementTrial) on any plan: they earn nothing. */
  trials: z.object({ entitlementCount: z.number().int(), monthsActive: z.number() }),
  /** MRR at each month's end with its movements, per currency (revenue-over-time.ts). */
  monthlyRecurringRevenue: z.array(ZMrrMonth),
  /** Per customer and currency: MRR summed over the period's months, and at its end. */
  revenueByCustomer: z.array(ZRevenueByCustomer),
});
export type TRevenueReport = z.infer<typeof ZRevenueReport>;

const months4 = (text: string) => microsToNumber(toMicros(text), 4);

/** GET /admin/reports/revenue. */
export async function revenueReport(ctx: DomainContext, query: TReportPeriodQuery): Promise<TRevenueReport> {
  const period = resolvePeriod(query);
  const rows = await queryReport<PlanRow>(REVENUE_BY_PLAN_SQL, [ctx.tenantId, period.from, period.to]);
  const overTime = await revenueOverTime(ctx, period);
  const planRows = rows.filter((r) => !r.isTotal && !r.trial);
  const trialTotal = rows.find((r) => r.isTotal && r.trial);

  const planSetIds = [...new Set(planRows.map((r) => r.planSetId!))];
  const planIds = planRows.flatMap((r) => (r.planId ? [r.planId] : []));
  const [planSets, lineItems] = await Promise.all([
    ctx.db.usagePlanSet.findMany({
      where: { id: { in: planSetIds } },
      select: { id: true, name: true, revision: true, suiteId: true, suite: { select: { name: true } } },
    }),
    ctx.db.usagePlanLineItem.findMany({
      where: { planId: { in: planIds }, included: true },
      select: { planId: true, productId: true },
    }),
  ]);
  const products = await productsByIds(
    ctx.db,
    lineItems.map((l) => l.productId),
  );
  const setById = new Map(planSets.map((s) => [s.id, s]));
  const productsOfPlan = (planId: string | null) =>
    lineItems.filter((l) => l.planId === planId).map((l) => l.productId);
  const productRef = (productId: string | null) => {
    const p = productId ? products.get(productId) : undefined;
    return { productId, productCode: p?.productCode ?? null, productName: p?.name ?? null };
  };
  const ref = (r: PlanRow) => {
    const set = setById.get(r.planSetId!);
    return {
      planSetId: r.planSetId!,
      planSetName: set?.name ?? null,
      revision: set?.revision ?? null,
      suiteId: set?.suiteId ?? null,
      suiteName: set?.suite.name ?? null,
      planName: r.planName!,
      pricingMode: (r.pricingMode as "Absolute" | "Relative" | null) ?? null,
      entitlementCount: r.entitlementCount,
      monthsActive: months4(r.months),
    };
  };

  const priced = planRows.filter((r) => r.pricingMode === "Absolute" && r.monthlyPrice !== null);
  const totals = new Map<string, bigint>();
  const byProduct = new Map<string, { productId: string | null; currency: string; micros: bigint }>();
  for (const r of priced) {
    if (!r.currency) continue;
    const micros = toMicros(r.revenue);
    totals.set(r.currency, (totals.get(r.currency) ?? 0n) + micros);
    const owners = productsOfPlan(r.planId);
    const shares: (string | null)[] = owners.length ? owners : [null];
    for (const productId of shares) {
      const key = `${productId}|${r.currency}`;
      const entry = byProduct.get(key) ?? { productId, currency: r.currency, micros: 0n };
      entry.micros += micros / BigInt(shares.length);
      byProduct.set(key, entry);
    }
  }

  const weighted = planRows.filter((r) => r.pricingMode === "Relative" && r.relativeWeight !== null);
  const weightedMonths = (r: PlanRow) => Number(r.months) * r.relativeWeight!;
  const totalWeighted = weighted.reduce((sum, r) => sum + weightedMonths(r), 0);
  const shareOf = (value: number) =>
    totalWeighted > 0 ? Math.round((value / totalWeighted) * 1e6) / 1e6 : 0;
  const productShares = new Map<string | null, number>();
  for (const r of weighted) {
    const owners = productsOfPlan(r.planId);
    const shares: (string | null)[] = owners.length ? owners : [null];
    for (const productId of shares)
      productShares.set(productId, (productShares.get(productId) ?? 0) + weightedMonths(r) / shares.length);
  }

  const byRevenue = <T extends { revenue: number; currency: string | null }>(a: T, b: T) =>
    (a.currency ?? "").localeCompare(b.currency ?? "") || b.revenue - a.revenue;
  return {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    generatedAt: now().toISOString(),
    totals: [...totals]
      .map(([currency, micros]) => ({ currency, revenue: microsToNumber(micros, currencyDigits(currency)) }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    revenueByPlan: priced
      .map((r) => ({
        ...ref(r),
        monthlyPrice: Number(r.monthlyPrice),
        currency: r.currency,
        revenue: microsToNumber(toMicros(r.revenue), r.currency ? currencyDigits(r.currency) : 2),
      }))
      .sort(byRevenue),
    revenueByProduct: [...byProduct.values()]
      .map((p) => ({
        ...productRef(p.productId),
        currency: p.currency,
        revenue: microsToNumber(p.micros, currencyDigits(p.currency)),
      }))
      .sort(byRevenue),
    unpricedPlans: planRows
      .filter((r) => r.pricingMode === null || (r.pricingMode === "Absolute" && r.monthlyPrice === null))
      .map(ref),
    relativeSharesByPlan: weighted
      .map((r) => ({
        ...ref(r),
        relativeWeight: r.relativeWeight!,
        weightedMonths: Math.round(weightedMonths(r) * 1e4) / 1e4,
        share: shareOf(weightedMonths(r)),
      }))
      .sort((a, b) => b.share - a.share),
    relativeSharesByProduct: [...productShares]
      .map(([productId, value]) => ({ ...productRef(productId), share: shareOf(value) }))
      .sort((a, b) => b.share - a.share),
    unweightedPlans: planRows
      .filter((r) => r.pricingMode === "Relative" && r.relativeWeight === null)
      .map(ref),
    trials: {
      entitlementCount: trialTotal?.entitlementCount ?? 0,
      monthsActive: trialTotal ? months4(trialTotal.months) : 0,
    },
    monthlyRecurringRevenue: overTime.months,
    revenueByCustomer: overTime.byCustomer,
  };
}

type RevenueLine = {
  entitlementId: string;
  entitlementName: string;
  customerId: string | null;
  isEntitlementTrial: boolean;
  planSetId: string;
  planName: string;
  pricingMode: string | null;
  monthlyPrice: string | null;
  currency: string | null;
  relativeWeight: number | null;
  from: Date;
  to: Date;
  months: string;
  revenue: string | null;
};

/** GET /admin/reports/revenue/csv: one line per entitlement and plan segment in the period. */
export const revenueExport = csvExport<TReportPeriodQuery>({
  key: "revenue",
  query: ZRevenueReportQuery,
  columns: [
    "entitlementId",
    "entitlementName",
    "customerId",
    "isEntitlementTrial",
    "planSetId",
    "planName",
    "pricingMode",
    "monthlyPrice",
    "currency",
    "relativeWeight",
    "from",
    "to",
    "monthsActive",
    "revenue",
  ],
  filename: (query) => exportFilename("revenue", query),
  async *rows(ctx, query) {
    const { from, to } = resolvePeriod(query);
    for await (const batch of streamRows<RevenueLine>(REVENUE_LINES_SQL, [ctx.tenantId, from, to])) {
      yield batch.map((l) => ({
        entitlementId: l.entitlementId,
        entitlementName: l.entitlementName,
        customerId: l.customerId,
        isEntitlementTrial: l.isEntitlementTrial,
        planSetId: l.planSetId,
        planName: l.planName,
        pricingMode: l.pricingMode,
        monthlyPrice: l.monthlyPrice,
        currency: l.currency,
        relativeWeight: l.relativeWeight,
        from: l.from.toISOString(),
        to: l.to.toISOString(),
        monthsActive: l.months,
        revenue: l.revenue,
      }));
    }
  },
});
