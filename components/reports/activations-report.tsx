"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Bar, Line } from "recharts";
import { useTRPC } from "../shell/trpc-provider";
import { defaultFilters, reportQuery, Stat } from "./report-filters";
import { ReportShell } from "./report-shell";
import { bucketLabel, SeriesChart } from "./series-chart";

/** Sessions started per interval (online and offline), the devices and licenses behind them. */
export function ActivationsReport() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState(defaultFilters);
  const query = reportQuery(filters, true);
  const result = useQuery({
    ...trpc.reports.activations.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const data = result.data;
  const chart = (data?.buckets ?? []).map((b) => ({
    name: bucketLabel(b.from, data!.interval),
    online: b.activations - b.offline,
    offline: b.offline,
    devices: b.devices,
  }));
  return (
    <ReportShell
      report="activations"
      filters={filters}
      onFiltersChange={setFilters}
      series
      query={query}
      result={result}
    >
      {(data) => (
        <>
          <div className="report-stats">
            <Stat label="Activations" value={data.totals.activations} testId="total-activations" />
            <Stat label="Devices" value={data.totals.devices} />
            <Stat label="Licenses" value={data.totals.entitlements} />
            <Stat label="Offline" value={data.totals.offline} />
            <Stat label="On trials" value={data.totals.trial} />
            <Stat label="Anonymous tries" value={data.totals.anonymousTry} />
          </div>
          <SeriesChart label="Activations chart" testId="activations-chart" data={chart}>
            <Bar dataKey="online" name="Online" stackId="a" fill="var(--accent)" isAnimationActive={false} />
            <Bar dataKey="offline" name="Offline" stackId="a" fill="#b45309" isAnimationActive={false} />
            <Line dataKey="devices" name="Devices" stroke="var(--ok)" dot={false} isAnimationActive={false} />
          </SeriesChart>
          <section className="report-section">
            <div className="table-wrap">
              <table className="table table-compact" data-testid="activations-table">
                <thead>
                  <tr>
                    <th>Interval</th>
                    <th className="num">Activations</th>
                    <th className="num">Devices</th>
                    <th className="num">Licenses</th>
                    <th className="num">Offline</th>
                    <th className="num">Trial</th>
                    <th className="num">Anonymous try</th>
                  </tr>
                </thead>
                <tbody>
                  {data.buckets.map((b) => (
                    <tr key={b.from}>
                      <td>{bucketLabel(b.from, data.interval)}</td>
                      <td className="num">{b.activations}</td>
                      <td className="num">{b.devices}</td>
                      <td className="num">{b.entitlements}</td>
                      <td className="num">{b.offline}</td>
                      <td className="num">{b.trial}</td>
                      <td className="num">{b.anonymousTry}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </ReportShell>
  );
}
