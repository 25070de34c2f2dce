"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Bar } from "recharts";
import type { TValueDeliveredReport } from "@/server/domain/reports/value-delivered";
import { useTRPC } from "../shell/trpc-provider";
import { defaultFilters, reportQuery, Stat } from "./report-filters";
import { EmptyRow, ReportShell } from "./report-shell";
import { bucketLabel, SeriesChart } from "./series-chart";

const PALETTE = ["#4338ca", "#0f766e", "#b45309", "#be185d", "#0369a1", "#4d7c0f"];
/** Features stacked on the chart by name; the rest of the valued ones add up as "Other". */
const CHARTED = PALETTE.length;

const amount = (n: number) => new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 }).format(n);
const percent = (share: number) =>
  new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 }).format(share);

/** Per interval, the value of the most valuable features stacked, the others as one. */
function chartRows(data: TValueDeliveredReport) {
  const charted = data.features.slice(0, CHARTED).filter((f) => f.value > 0);
  const keys = new Map(charted.map((f, i) => [f.featureCatalogId, `f${i}`]));
  const rows = data.buckets.map((b) => {
    const row: Record<string, string | number> = { name: bucketLabel(b.from, data.interval), other: 0 };
    for (const f of b.features) {
      if (f.value === null) continue;
      const key = keys.get(f.featureCatalogId) ?? "other";
      row[key] = ((row[key] as number | undefined) ?? 0) + f.value;
    }
    return row;
  });
  return { charted, rows, hasOther: rows.some((r) => (r.other as number) > 0) };
}

/** Value delivered per feature: usage × valueScore (as set now), charted over time. */
export function ValueDeliveredReport() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(defaultFilters);
  const query = reportQuery(filters, true);
  const result = useQuery({
    ...trpc.reports.valueDelivered.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  return (
    <ReportShell
      report="value-delivered"
      filters={filters}
      onFiltersChange={setFilters}
      series
      query={query}
      result={result}
    >
      {(data) => {
        const { charted, rows, hasOther } = chartRows(data);
        return (
          <>
            <div className="report-stats">
              <Stat label="Value delivered" value={amount(data.totalValue)} testId="total-value" />
              <Stat label="Valued features" value={data.features.length} />
              <Stat label="Features without a valueScore" value={data.unvaluedFeatures.length} />
            </div>
            <SeriesChart label="Value delivered chart" testId="value-chart" data={rows}>
              {charted.map((f, i) => (
                <Bar
                  key={f.featureCatalogId}
                  dataKey={`f${i}`}
                  name={f.name}
                  stackId="v"
                  fill={PALETTE[i]}
                  isAnimationActive={false}
                />
              ))}
              {hasOther ? (
                <Bar dataKey="other" name="Other" stackId="v" fill="#6b7280" isAnimationActive={false} />
              ) : null}
            </SeriesChart>
            <section className="report-section">
              <h2>By feature</h2>
              <p className="muted small">
                Usage of the feature&apos;s metric in the period × its valueScore as set now: changing a
                valueScore re-values past usage.
              </p>
              <div className="table-wrap">
                <table className="table table-compact" data-testid="value-by-feature">
                  <thead>
                    <tr>
                      <th>Feature</th>
                      <th>Metric</th>
                      <th className="num">Usage</th>
                      <th className="num">valueScore</th>
                      <th className="num">Value</th>
                      <th className="num">Share</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.features.length ? (
                      data.features.map((f) => (
                        <tr key={f.featureCatalogId}>
                          <td>
                            {f.name} <span className="muted small">{f.featureCode}</span>
                          </td>
                          <td>{f.metricName}</td>
                          <td className="num">
                            {amount(f.usage)}
                            {f.units ? ` ${f.units}` : ""}
                          </td>
                          <td className="num">{f.valueScore}</td>
                          <td className="num">{amount(f.value)}</td>
                          <td className="num">{percent(f.share)}</td>
                        </tr>
                      ))
                    ) : (
                      <EmptyRow colSpan={6}>No feature with a metric has a valueScore.</EmptyRow>
                    )}
                  </tbody>
                </table>
              </div>
            </section>
            <section className="report-section" data-testid="unvalued-features">
              <h2>Not valued</h2>
              <p className="muted small">
                Features whose valueScore is empty: their usage contributes nothing until one is set.
              </p>
              {data.unvaluedFeatures.length ? (
                <div className="table-wrap">
                  <table className="table table-compact">
                    <thead>
                      <tr>
                        <th>Feature</th>
                        <th>Metric</th>
                        <th className="num">Usage</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.unvaluedFeatures.map((f) => (
                        <tr key={f.featureCatalogId}>
                          <td>
                            {f.name} <span className="muted small">{f.featureCode}</span>
                          </td>
                          <td>{f.metricName}</td>
                          <td className="num">
                            {amount(f.usage)}
                            {f.units ? ` ${f.units}` : ""}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ) : (
                <p className="muted">None.</p>
              )}
            </section>
          </>
        );
      }}
    </ReportShell>
  );
}
