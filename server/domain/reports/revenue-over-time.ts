import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { queryReport } from "../../db/report-queries.ts";
import { customerNames } from "../customers/customer-names.ts";
import { csvExport } from "./report-export.ts";
import {
  exportFilename,
  resolvePeriod,
  ZReportPeriodQuery,
  type TReportPeriodQuery,
} from "./report-period.ts";
import { currencyDigits, microsToNumber, toMicros } from "./report-sql.ts";

/**
 * Monthly recurring revenue over time (docs/decisions.md "Revenue over time"). At the end of each
 * calendar month (UTC) an entitlement contributes its plan's monthlyPrice when, at that last
 * instant, it is issued (Published or Archived later), not a trial, in force (valid from before
 * the month's end, not expired, not archived, not in a lapse a renewal ended) and its billing
 * record is not Canceled; its plan is the last plan-assignment history entry before the month's
 * end, and only Absolute plans with a price count. Month to month, per entitlement and currency:
 * from nothing is new, more is expansion, less (but not nothing) is contraction, to nothing is churn.
 */

/** Each entitlement's plan price at the end of each month: $1 tenant, $2 month starts, $3 month ends. */
export const MRR_SNAPSHOT_SQL = `
  WITH months AS (
    SELECT * FROM unnest($2::timestamptz[], $3::timestamptz[]) AS m("monthStart", "monthEnd")
  )
  SELECT m."monthStart", e.id AS "entitlementId", e."customerId", p.currency,
         p."monthlyPrice"::text AS price
  FROM months m
  JOIN "Entitlement" e ON e."tenantId" = $1::uuid AND e.status IN ('Published', 'Archived')
       AND NOT e."isEntitlementTrial"
       AND (e."notValidBeforeDateTime" IS NULL OR e."notValidBeforeDateTime" < m."monthEnd")
       AND (e."expirationDateTime" IS NULL OR e."expirationDateTime" >= m."monthEnd")
       AND (e."archivedAt" IS NULL OR e."archivedAt" >= m."monthEnd")
  JOIN LATERAL (
    SELECT h."newPlanSetId", h."newPlanName"
    FROM "EntitlementPlanHistory" h
    WHERE h."tenantId" = $1::uuid AND h."entitlementId" = e.id AND h."changedAt" < m."monthEnd"
    ORDER BY h."changedAt" DESC, h.id DESC
    LIMIT 1
  ) h ON true
  JOIN "UsagePlan" p ON p."tenantId" = $1::uuid AND p."planSetId" = h."newPlanSetId" AND p.name = h."newPlanName"
       AND p."pricingMode" = 'Absolute' AND p."monthlyPrice" > 0 AND p.currency IS NOT NULL
  WHERE NOT EXISTS (
          SELECT 1 FROM "EntitlementRenewal" r
          WHERE r."tenantId" = $1::uuid AND r."entitlementId" = e.id
            AND r."previousExpirationDateTime" < m."monthEnd" AND r."renewedAt" >= m."monthEnd")
    AND NOT EXISTS (
          SELECT 1 FROM "EntitlementBilling" b
          WHERE b."tenantId" = $1::uuid AND b."entitlementId" = e.id
            AND b.state = 'Canceled' AND b."stateObservedAt" < m."monthEnd")
  ORDER BY m."monthStart", e.id`;

type SnapshotRow = {
  monthStart: Date;
  entitlementId: string;
  customerId: string | null;
  currency: string;
  price: string;
};

export const ZMrrMonth = z.object({
  /** The month's first day, `2025-03-01`. */
  month: z.string(),
  currency: z.string(),
  mrr: z.number(),
  new: z.number(),
  expansion: z.number(),
  contraction: z.number(),
  churn: z.number(),
  /** Entitlements contributing at the month's end. */
  entitlementCount: z.number().int(),
});
export type TMrrMonth = z.infer<typeof ZMrrMonth>;

export const ZRevenueByCustomer = z.object({
  customerId: z.string().uuid().nullable(),
  customerName: z.string().nullable(),
  currency: z.string(),
  /** The customer's MRR summed over the months of the period. */
  revenue: z.number(),
  /** The customer's MRR at the end of the period's last month. */
  mrr: z.number(),
});
export type TRevenueByCustomer = z.infer<typeof ZRevenueByCustomer>;

/** The month before `from`'s month (the opening MRR), then every month from `from`'s month until `to`. */
export function monthsOf(from: Date, to: Date): Date[] {
  const months: Date[] = [];
  let cursor = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() - 1, 1));
  while (cursor < to) {
    months.push(cursor);
    cursor = nextMonth(cursor);
  }
  return months;
}

function nextMonth(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}
const day = (d: Date) => d.toISOString().slice(0, 10);

/** MRR per month and currency with its movements, and revenue per customer, over [from, to). */
export async function revenueOverTime(
  ctx: DomainContext,
  period: { from: Date; to: Date },
): Promise<{ months: TMrrMonth[]; byCustomer: TRevenueByCustomer[] }> {
  const all = monthsOf(period.from, period.to);
  if (all.length < 2) return { months: [], byCustomer: [] };
  const rows = await queryReport<SnapshotRow>(MRR_SNAPSHOT_SQL, [ctx.tenantId, all, all.map(nextMonth)]);
  // month → currency → entitlement → price (micros)
  const snapshot = new Map<string, Map<string, Map<string, bigint>>>();
  const customerOf = new Map<string, string | null>();
  for (const r of rows) {
    const month = day(r.monthStart);
    const byCurrency = snapshot.get(month) ?? new Map<string, Map<string, bigint>>();
    const entries = byCurrency.get(r.currency) ?? new Map<string, bigint>();
    entries.set(r.entitlementId, toMicros(r.price));
    byCurrency.set(r.currency, entries);
    snapshot.set(month, byCurrency);
    customerOf.set(r.entitlementId, r.customerId);
  }
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  // The opening month (before `from`) only gives the first month's movements.
  const shown = all.slice(1);
  const months: TMrrMonth[] = [];
  const customerTotals = new Map<
    string,
    { customerId: string | null; currency: string; micros: bigint; last: bigint }
  >();
  for (const currency of currencies) {
    const money = (micros: bigint) => microsToNumber(micros, currencyDigits(currency));
    for (let i = 0; i < shown.length; i++) {
      const month = day(shown[i]);
      const before = snapshot.get(day(all[i]))?.get(currency) ?? new Map<string, bigint>();
      const now = snapshot.get(month)?.get(currency) ?? new Map<string, bigint>();
      let mrr = 0n;
      const moves = { new: 0n, expansion: 0n, contraction: 0n, churn: 0n };
      for (const [id, price] of now) {
        mrr += price;
        const was = before.get(id) ?? 0n;
        if (was === 0n) moves.new += price;
        else if (price > was) moves.expansion += price - was;
        else if (price < was) moves.contraction += was - price;
      }
      for (const [id, was] of before) if (!now.has(id)) moves.churn += was;
      months.push({
        month,
        currency,
        mrr: money(mrr),
        new: money(moves.new),
        expansion: money(moves.expansion),
        contraction: money(moves.contraction),
        churn: money(moves.churn),
        entitlementCount: now.size,
      });
      for (const [id, price] of now) {
        const customerId = customerOf.get(id) ?? null;
        const key = `${customerId}|${currency}`;
        const entry = customerTotals.get(key) ?? { customerId, currency, micros: 0n, last: 0n };
        entry.micros += price;
        if (i === shown.length - 1) entry.last += price;
        customerTotals.set(key, entry);
      }
    }
  }
  const customerIds = [...customerTotals.values()].flatMap((c) => (c.customerId ? [c.customerId] : []));
  const names = await customerNames(ctx, customerIds);
  const byCustomer = [...customerTotals.values()]
    .map((c) => ({
      customerId: c.customerId,
      customerName: c.customerId ? (names.get(c.customerId) ?? null) : null,
      currency: c.currency,
      revenue: microsToNumber(c.micros, currencyDigits(c.currency)),
      mrr: microsToNumber(c.last, currencyDigits(c.currency)),
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency) || b.revenue - a.revenue);
  months.sort((a, b) => a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency));
  return { months, byCustomer };
}

/** The back office's MRR CSV (GET /admin/reports/export/mrr): one line per month and currency. */
export const mrrExport = csvExport<TReportPeriodQuery>({
  key: "mrr",
  query: ZReportPeriodQuery,
  columns: ["month", "currency", "mrr", "new", "expansion", "contraction", "churn", "entitlementCount"],
  filename: (query) => exportFilename("mrr", query),
  async *rows(ctx, query) {
    const { months } = await revenueOverTime(ctx, resolvePeriod(query));
    if (months.length) yield months;
  },
});
