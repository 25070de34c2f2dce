"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { TRevenueReport } from "@/server/domain/reports/revenue";
import { formatCompact, formatMoney, formatMonth } from "../ui/format";

type Months = TRevenueReport["monthlyRecurringRevenue"];

/** Revenue in one currency: zero reads "EUR 0" (no revenue), not "Free" (a free plan). */
export const revenueMoney = (value: number, currency: string) =>
  formatMoney(value, currency, { zero: `${currency} 0` });
type Customers = TRevenueReport["revenueByCustomer"];

/**
 * Monthly recurring revenue over the period, one chart per currency: the MRR line over the
 * month's movements (new and expansion up, contraction and churn down), with labelled axes; then
 * revenue by customer. Definitions: docs/decisions.md "Revenue over time".
 */
export function MrrSection({ months, customers }: { months: Months; customers: Customers }) {
  const currencies = [...new Set(months.map((m) => m.currency))];
  return (
    <section className="panel" aria-label="Monthly recurring revenue" data-testid="mrr">
      <h2 style={{ marginTop: 0 }}>Monthly recurring revenue</h2>
      {currencies.length === 0 ? (
        <p className="muted" data-testid="mrr-empty">
          No data in this range.
        </p>
      ) : (
        currencies.map((currency) => {
          const rows = months
            .filter((m) => m.currency === currency)
            .map((m) => ({
              name: formatMonth(m.month),
              mrr: m.mrr,
              new: m.new,
              expansion: m.expansion,
              contraction: -m.contraction,
              churn: -m.churn,
            }));
          const money = (v: number) => revenueMoney(v, currency);
          return (
            <figure key={currency} style={{ margin: "0 0 1rem" }}>
              <figcaption className="muted small">MRR and its movements in {currency}</figcaption>
              <div className="report-chart" data-testid={`mrr-chart-${currency}`}>
                <ResponsiveContainer>
                  <ComposedChart
                    data={rows}
                    margin={{ top: 8, right: 16, bottom: 24, left: 16 }}
                    stackOffset="sign"
                  >
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis
                      dataKey="name"
                      tick={{ fontSize: 12 }}
                      label={{ value: "Month", position: "insideBottom", offset: -12, fontSize: 12 }}
                    />
                    <YAxis
                      tick={{ fontSize: 12 }}
                      tickFormatter={(v: number) => formatCompact(v)}
                      label={{ value: currency, angle: -90, position: "insideLeft", fontSize: 12 }}
                    />
                    <Tooltip formatter={(value) => money(Math.abs(Number(value)))} />
                    <Legend verticalAlign="top" />
                    <Bar dataKey="new" name="New" stackId="m" fill="#0f766e" isAnimationActive={false} />
                    <Bar
                      dataKey="expansion"
                      name="Expansion"
                      stackId="m"
                      fill="#4338ca"
                      isAnimationActive={false}
                    />
                    <Bar
                      dataKey="contraction"
                      name="Contraction"
                      stackId="m"
                      fill="#b45309"
                      isAnimationActive={false}
                    />
                    <Bar dataKey="churn" name="Churn" stackId="m" fill="#b42318" isAnimationActive={false} />
                    <Line
                      dataKey="mrr"
                      name="MRR"
                      stroke="#111827"
                      strokeWidth={2}
                      isAnimationActive={false}
                    />
                  </ComposedChart>
                </ResponsiveContainer>
              </div>
              <div className="table-wrap">
                <table className="table table-compact" data-testid={`mrr-table-${currency}`}>
                  <thead>
                    <tr>
                      <th>Month</th>
                      <th className="num">MRR</th>
                      <th className="num">New</th>
                      <th className="num">Expansion</th>
                      <th className="num">Contraction</th>
                      <th className="num">Churn</th>
                    </tr>
                  </thead>
                  <tbody>
                    {months
                      .filter((m) => m.currency === currency)
                      .map((m) => (
                        <tr key={m.month}>
                          <td>{formatMonth(m.month)}</td>
                          <td className="num">{money(m.mrr)}</td>
                          <td className="num">{money(m.new)}</td>
                          <td className="num">{money(m.expansion)}</td>
                          <td className="num">{money(m.contraction)}</td>
                          <td className="num">{money(m.churn)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
            </figure>
          );
        })
      )}
      <h3>Revenue by customer</h3>
      {customers.length === 0 ? (
        <p className="muted">No data in this range.</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-compact" data-testid="revenue-by-customer">
            <thead>
              <tr>
                <th>Customer</th>
                <th className="num">Revenue in the period</th>
                <th className="num">MRR at the end</th>
              </tr>
            </thead>
            <tbody>
              {customers.map((c) => (
                <tr key={`${c.customerId}:${c.currency}`}>
                  <td>
                    <span className="truncate" title={c.customerName ?? "No customer"}>
                      {c.customerName ?? "No customer"}
                    </span>
                  </td>
                  <td className="num">{revenueMoney(c.revenue, c.currency)}</td>
                  <td className="num">{revenueMoney(c.mrr, c.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
