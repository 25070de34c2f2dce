"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReportInterval } from "@/server/domain/reports/report-period";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCompact, formatDate, formatMonth, formatQuantity } from "../ui/format";
import { defaultFilters, ReportFilters, reportQuery } from "../reports/report-filters";
import { SeverityBadge } from "./severity-badge";

/**
 * The Usage page: one metric across every customer — usage over time, the top consumers and the
 * licenses near or over their allowance, by severity band — each linking to the entitlement's
 * meters.
 */
export function FleetUsage() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(defaultFilters);
  const [metricName, setMetricName] = useState("");
  const [interval, setBucketInterval] = useState<ReportInterval>("month");
  const q = useQuery({
    ...trpc.reports.fleetUsage.queryOptions({
      ...reportQuery(filters, false),
      interval,
      ...(metricName ? { metricName } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const d = q.data;
  const label = (from: string) => (interval === "month" ? formatMonth(from) : formatDate(from));
  const bars = (d?.series ?? []).map((b) => ({ name: label(b.from), usage: Number(b.usage) }));
  const empty = bars.every((b) => b.usage === 0);
  return (
    <>
      <div className="toolbar">
        <label>
          Metric{" "}
          <select value={d?.metricName ?? ""} onChange={(e) => setMetricName(e.target.value)}>
            {(d?.metrics ?? []).length === 0 ? <option value="">No metrics yet</option> : null}
            {(d?.metrics ?? []).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label>
          Interval{" "}
          <select value={interval} onChange={(e) => setBucketInterval(e.target.value as ReportInterval)}>
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </label>
      </div>
      <ReportFilters value={filters} onChange={setFilters} series={false} />
      <ProblemAlert problem={problemFrom(q.error)} />
      {d ? (
        <>
          <section className="panel" aria-label="Usage over time">
            <h2 style={{ marginTop: 0 }}>
              {d.metricName ? (
                <>
                  <code>{d.metricName}</code> over time ·{" "}
                  <span data-testid="fleet-usage-total">{formatQuantity(d.total)}</span> in all
                </>
              ) : (
                "Usage over time"
              )}
            </h2>
            {empty ? (
              <p className="muted">No data in this range.</p>
            ) : (
              <div className="report-chart" data-testid="fleet-usage-chart">
                <ResponsiveContainer>
                  <BarChart data={bars} margin={{ top: 8, right: 16, bottom: 24, left: 16 }}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis
                      dataKey="name"
                      tick={{ fontSize: 12 }}
                      label={{ value: "Period start", position: "insideBottom", offset: -16 }}
                    />
                    <YAxis
                      tick={{ fontSize: 12 }}
                      tickFormatter={(v: number) => formatCompact(v)}
                      label={{ value: d.metricName ?? "usage", angle: -90, position: "insideLeft" }}
                    />
                    <Tooltip formatter={(v) => formatQuantity(Number(v))} />
                    <Bar dataKey="usage" name="Usage" fill="var(--accent)" radius={[3, 3, 0, 0]} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            )}
          </section>
          <div className="dash-columns">
            <section className="panel" aria-label="Top consumers">
              <h2 style={{ marginTop: 0 }}>Top consumers</h2>
              {d.topConsumers.length === 0 ? (
                <p className="muted">No usage in this range.</p>
              ) : (
                <table className="table table-compact" aria-label="Top consumers">
                  <thead>
                    <tr>
                      <th scope="col">Entitlement</th>
                      <th scope="col" className="num">
                        Usage
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.topConsumers.map((t) => (
                      <tr key={t.entitlementId}>
                        <td>
                          <Link href={`/admin/meters?entitlementId=${t.entitlementId}`}>
                            {t.entitlementName || "entitlement"}
                          </Link>
                        </td>
                        <td className="num">{formatQuantity(t.usage)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <section className="panel" aria-label="Near or over their allowance">
              <h2 style={{ marginTop: 0 }}>Near or over their allowance</h2>
              {d.bands.every((b) => b.count === 0) ? (
                <p className="muted">Every meter and balance is within its allowance.</p>
              ) : (
                d.bands
                  .filter((b) => b.count > 0)
                  .map((b) => (
                    <div key={b.severity} data-testid={`band-${b.severity}`}>
                      <h3>
                        <SeverityBadge severity={b.severity} /> {b.count}
                      </h3>
                      <ul>
                        {b.items.map((i) => (
                          <li key={`${i.entitlementId}:${i.metricName}:${i.kind}`}>
                            <Link href={`/admin/meters?entitlementId=${i.entitlementId}`}>
                              {i.entitlementName || "entitlement"}
                            </Link>{" "}
                            <span className="muted small">
                              {i.metricName} {i.kind === "balance" ? "balance" : "meter"}
                            </span>
                          </li>
                        ))}
                      </ul>
                      {b.count > b.items.length ? (
                        <p className="muted small">and {b.count - b.items.length} more</p>
                      ) : null}
                    </div>
                  ))
              )}
            </section>
          </div>
        </>
      ) : null}
    </>
  );
}
