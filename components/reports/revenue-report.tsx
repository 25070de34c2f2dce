"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { TRevenueReport } from "@/server/domain/reports/revenue";
import { formatCompact, formatMoney, formatPercent, formatQuantity } from "../ui/format";
import { useTRPC } from "../shell/trpc-provider";
import { defaultFilters, reportQuery, Stat } from "./report-filters";
import { EmptyRow, ReportShell } from "./report-shell";
import { MrrSection, revenueMoney } from "./mrr-section";

const PALETTE = ["#4338ca", "#0f766e", "#b45309", "#be185d", "#0369a1", "#4d7c0f", "#7c3aed", "#b42318"];

// Revenue reads as the MRR section's does ("EUR 0" when nothing was earned, not "Free"); a plan's
// price of 0 is a free plan and reads "Free", as prices do everywhere.
const money = (amount: number, currency: string | null) =>
  currency ? revenueMoney(amount, currency) : formatQuantity(amount);
const price = (amount: number, currency: string | null) => formatMoney(amount, currency);
const months = (n: number) => formatQuantity(n, null, { maxDecimals: 2 });

type PlanRef = TRevenueReport["unpricedPlans"][number];
const planLabel = (p: PlanRef) =>
  `${p.planName} · ${p.planSetName ?? "a removed plan set"}${p.revision ? ` r${p.revision}` : ""}`;

/** Plans that earn nothing in the report (unpriced or unweighted): listed apart, never as free. */
function PlansApart({
  title,
  note,
  plans,
  testId,
}: {
  title: string;
  note: string;
  plans: PlanRef[];
  testId: string;
}) {
  return (
    <section className="report-section" data-testid={testId}>
      <h2>{title}</h2>
      <p className="muted small">{note}</p>
      {plans.length ? (
        <div className="table-wrap">
          <table className="table table-compact">
            <thead>
              <tr>
                <th>Plan</th>
                <th>Suite</th>
                <th className="num">Entitlements</th>
                <th className="num">Months active</th>
              </tr>
            </thead>
            <tbody>
              {plans.map((p) => (
                <tr key={`${p.planSetId}:${p.planName}`}>
                  <td>{planLabel(p)}</td>
                  <td>{p.suiteName ?? "—"}</td>
                  <td className="num">{p.entitlementCount}</td>
                  <td className="num">{months(p.monthsActive)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">None in this period.</p>
      )}
    </section>
  );
}

/** Revenue by plan and by product over a period, with the unpriced, unweighted and trial parts apart. */
export function RevenueReport() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(defaultFilters);
  const query = reportQuery(filters, false);
  const result = useQuery({ ...trpc.reports.revenue.queryOptions(query), placeholderData: keepPreviousData });
  const data = result.data;
  const slices = (data?.relativeSharesByPlan ?? []).filter((p) => p.share > 0);
  // One chart per currency: amounts in different currencies share no axis.
  const charts = (data?.totals ?? []).map((t) => ({
    currency: t.currency,
    bars: (data?.revenueByPlan ?? [])
      .filter((p) => p.currency === t.currency)
      .map((p) => ({ name: p.planName, revenue: p.revenue })),
  }));
  return (
    <ReportShell
      report="revenue"
      filters={filters}
      onFiltersChange={setFilters}
      series={false}
      query={query}
      result={result}
    >
      {(data) => (
        <>
          <div className="report-stats" data-testid="revenue-totals">
            {data.totals.length ? (
              data.totals.map((t) => (
                <Stat
                  key={t.currency}
                  label={`Revenue in ${t.currency}`}
                  value={money(t.revenue, t.currency)}
                />
              ))
            ) : (
              <Stat label="Revenue" value="No priced revenue" />
            )}
            <Stat label="Trial entitlements (earn nothing)" value={data.trials.entitlementCount} />
          </div>

          <MrrSection months={data.monthlyRecurringRevenue} customers={data.revenueByCustomer} />
          <p className="small">
            <a href={`/admin/reports/export/mrr?${new URLSearchParams(query as Record<string, string>)}`}>
              Download MRR by month (CSV)
            </a>
          </p>

          <section className="panel" aria-label="Revenue by plan chart">
            <h2 style={{ marginTop: 0 }}>Revenue by plan</h2>
            {charts.length ? (
              <div
                className="card-grid"
                style={{ gridTemplateColumns: "repeat(auto-fit, minmax(320px, 1fr))" }}
              >
                {charts.map((c) => (
                  <figure key={c.currency} style={{ margin: 0 }}>
                    <figcaption className="muted small">{c.currency}</figcaption>
                    <div className="report-chart" data-testid={`revenue-chart-${c.currency}`}>
                      <ResponsiveContainer>
                        <BarChart data={c.bars} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
                          <CartesianGrid strokeDasharray="3 3" vertical={false} />
                          <XAxis dataKey="name" tick={{ fontSize: 12 }} />
                          <YAxis
                            tick={{ fontSize: 12 }}
                            tickFormatter={(v: number) => formatCompact(v)}
                            label={{ value: c.currency, angle: -90, position: "insideLeft", fontSize: 12 }}
                          />
                          <Tooltip formatter={(value) => money(Number(value), c.currency)} />
                          <Bar dataKey="revenue" name="Revenue" isAnimationActive={false}>
                            {c.bars.map((bar, i) => (
                              <Cell key={bar.name} fill={PALETTE[i % PALETTE.length]} />
                            ))}
                          </Bar>
                        </BarChart>
                      </ResponsiveContainer>
                    </div>
                  </figure>
                ))}
              </div>
            ) : (
              <p className="muted">No data in this range: no priced plan was active.</p>
            )}
          </section>

          <section className="report-section">
            <h2>By plan</h2>
            <div className="table-wrap">
              <table className="table table-compact" data-testid="revenue-by-plan">
                <thead>
                  <tr>
                    <th>Plan</th>
                    <th>Suite</th>
                    <th className="num">Monthly price</th>
                    <th className="num">Entitlements</th>
                    <th className="num">Months active</th>
                    <th className="num">Revenue</th>
                  </tr>
                </thead>
                <tbody>
                  {data.revenueByPlan.map((p) => (
                    <tr key={`${p.planSetId}:${p.planName}`}>
                      <td>{planLabel(p)}</td>
                      <td>{p.suiteName ?? "—"}</td>
                      <td className="num">{price(p.monthlyPrice, p.currency)}</td>
                      <td className="num">{p.entitlementCount}</td>
                      <td className="num">{months(p.monthsActive)}</td>
                      <td className="num">{money(p.revenue, p.currency)}</td>
                    </tr>
                  ))}
                  {data.revenueByPlan.length ? null : (
                    <EmptyRow colSpan={6}>No priced plan was active in this period.</EmptyRow>
                  )}
                </tbody>
              </table>
            </div>
          </section>

          <section className="report-section">
            <h2>By product</h2>
            <p className="muted small">
              Each plan&apos;s revenue is split equally among the products its line items include.
            </p>
            <div className="table-wrap">
              <table className="table table-compact" data-testid="revenue-by-product">
                <thead>
                  <tr>
                    <th>Product</th>
                    <th>Code</th>
                    <th className="num">Revenue</th>
                  </tr>
                </thead>
                <tbody>
                  {data.revenueByProduct.map((p) => (
                    <tr key={`${p.productId}:${p.currency}`}>
                      <td>{p.productName ?? "No product"}</td>
                      <td className="mono">{p.productCode ?? "—"}</td>
                      <td className="num">{money(p.revenue, p.currency)}</td>
                    </tr>
                  ))}
                  {data.revenueByProduct.length ? null : (
                    <EmptyRow colSpan={3}>No revenue in this period.</EmptyRow>
                  )}
                </tbody>
              </table>
            </div>
          </section>

          <PlansApart
            title="Plans without a price"
            note="Absolute plans whose monthly price is not set yet: excluded from revenue, never counted as free."
            plans={data.unpricedPlans}
            testId="unpriced-plans"
          />

          <section className="report-section" data-testid="relative-shares">
            <h2>Relative plans: shares</h2>
            <p className="muted small">
              Relative weight × months active, as a share of the total of every weighted plan in the period.
            </p>
            {data.relativeSharesByPlan.length ? (
              <div
                style={{
                  display: "grid",
                  gridTemplateColumns: "minmax(240px, 1fr) 2fr",
                  gap: "1rem",
                  alignItems: "start",
                }}
              >
                <div className="report-chart">
                  <ResponsiveContainer>
                    <PieChart>
                      <Pie
                        data={slices}
                        dataKey="share"
                        nameKey="planName"
                        isAnimationActive={false}
                        label={(entry) => `${entry.name} ${formatPercent(Number(entry.value))}`}
                      >
                        {slices.map((p, i) => (
                          <Cell key={`${p.planSetId}:${p.planName}`} fill={PALETTE[i % PALETTE.length]} />
                        ))}
                      </Pie>
                      <Legend />
                      <Tooltip formatter={(value) => formatPercent(Number(value))} />
                    </PieChart>
                  </ResponsiveContainer>
                </div>
                <div className="table-wrap">
                  <table className="table table-compact">
                    <thead>
                      <tr>
                        <th>Plan</th>
                        <th className="num">Weight</th>
                        <th className="num">Months active</th>
                        <th className="num">Share</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.relativeSharesByPlan.map((p) => (
                        <tr key={`${p.planSetId}:${p.planName}`}>
                          <td>{planLabel(p)}</td>
                          <td className="num">{p.relativeWeight}</td>
                          <td className="num">{months(p.monthsActive)}</td>
                          <td className="num">{formatPercent(p.share)}</td>
                        </tr>
                      ))}
                      {data.relativeSharesByProduct.map((p) => (
                        <tr key={`product:${p.productId}`} className="muted">
                          <td colSpan={3}>Product {p.productName ?? "(none)"}</td>
                          <td className="num">{formatPercent(p.share)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            ) : (
              <p className="muted">No weighted Relative plan was active in this period.</p>
            )}
          </section>

          <PlansApart
            title="Relative plans without a weight"
            note="Relative plans whose weight is not set yet: they take no share (a weight of 0 takes a share of 0)."
            plans={data.unweightedPlans}
            testId="unweighted-plans"
          />
        </>
      )}
    </ReportShell>
  );
}
