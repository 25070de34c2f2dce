"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "../shell/trpc-provider";
import { formatCompact, formatMonth } from "../ui/format";
import { revenueMoney } from "../reports/mrr-section";

/**
 * Monthly recurring revenue on the dashboard: this month's figure per currency, its change since
 * last month and the last twelve months as a line; the Revenue report has the movements.
 * Staff whose role may not read reports see no card (the procedure refuses them).
 */
export function MrrCard() {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.reports.revenue.queryOptions({}), retry: false });
  if (q.error || !q.data) return null;
  const months = q.data.monthlyRecurringRevenue;
  const currencies = [...new Set(months.map((m) => m.currency))];
  return (
    <section className="panel" aria-label="Monthly recurring revenue">
      <div className="dash-panel-head">
        <h2>Monthly recurring revenue</h2>
        <Link href="/admin/reports/revenue">report</Link>
      </div>
      {currencies.length === 0 ? (
        <p className="muted" data-testid="dash-mrr-empty">
          No priced licenses yet: MRR appears once an entitlement is on a plan with a monthly price.
        </p>
      ) : (
        currencies.map((currency) => {
          const rows = months.filter((m) => m.currency === currency);
          const last = rows[rows.length - 1];
          const before = rows[rows.length - 2];
          const change = before ? last.mrr - before.mrr : null;
          const money = (v: number) => revenueMoney(v, currency);
          return (
            <div key={currency} className="dash-mrr" data-testid={`dash-mrr-${currency}`}>
              <p>
                <strong className="dash-figure-value">{money(last.mrr)}</strong>{" "}
                <span className="muted">
                  in {formatMonth(last.month)}
                  {change === null
                    ? ""
                    : ` · ${change >= 0 ? "+" : "−"}${money(Math.abs(change))} since last month`}
                </span>
              </p>
              <div className="dash-chart" style={{ height: 140 }}>
                <ResponsiveContainer>
                  <LineChart
                    data={rows.map((m) => ({ name: formatMonth(m.month), MRR: m.mrr }))}
                    margin={{ top: 8, right: 8, bottom: 4, left: 8 }}
                  >
                    <XAxis dataKey="name" tick={{ fontSize: 11 }} />
                    <YAxis
                      tick={{ fontSize: 11 }}
                      width={56}
                      tickFormatter={(v: number) => formatCompact(v)}
                      label={{ value: currency, angle: -90, position: "insideLeft", fontSize: 11 }}
                    />
                    <Tooltip formatter={(v) => money(Number(v))} />
                    <Line type="monotone" dataKey="MRR" stroke="var(--accent)" dot={false} />
                  </LineChart>
                </ResponsiveContainer>
              </div>
            </div>
          );
        })
      )}
    </section>
  );
}
