"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Bar, Line } from "recharts";
import { useTRPC } from "../shell/trpc-provider";
import { defaultFilters, reportQuery, Stat, type ReportFilterState } from "./report-filters";
import { EmptyRow, ReportShell } from "./report-shell";
import { bucketLabel, SeriesChart } from "./series-chart";

const percent = (share: number | null) =>
  share === null
    ? "—"
    : new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 }).format(share);

/** Seats held at their peak per interval against the seats of the licenses in force; the most utilised licenses. */
export function SeatUtilizationReport() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<ReportFilterState>(() => ({
    ...defaultFilters(),
    interval: "week",
  }));
  const query = reportQuery(filters, true);
  const result = useQuery({
    ...trpc.reports.seatUtilization.queryOptions(query),
    placeholderData: keepPreviousData,
  });
  const data = result.data;
  const chart = (data?.buckets ?? []).map((b) => ({
    name: bucketLabel(b.from, data!.interval),
    inUse: b.peakSeatsInUse,
    capacity: b.seatCapacity,
  }));
  return (
    <ReportShell
      report="seat-utilization"
      filters={filters}
      onFiltersChange={setFilters}
      series
      query={query}
      result={result}
    >
      {(data) => (
        <>
          <div className="report-stats">
            <Stat label="Most seats held at once" value={data.summary.peakSeatsInUse} testId="peak-seats" />
            <Stat label="Most seats in force" value={data.summary.peakSeatCapacity} testId="seats-in-force" />
            <Stat label="Licenses with sessions" value={data.summary.entitlementsWithSessions} />
            <Stat label="Licenses that reached their seats" value={data.summary.entitlementsAtCapacity} />
          </div>
          <SeriesChart label="Seat utilisation chart" testId="seat-utilization-chart" data={chart}>
            <Bar
              dataKey="inUse"
              name="Peak seats in use"
              fill="var(--accent)"
              fillOpacity={0.75}
              isAnimationActive={false}
            />
            <Line
              type="step"
              dataKey="capacity"
              name="Seats in force"
              stroke="var(--danger)"
              strokeDasharray="6 4"
              dot={false}
              isAnimationActive={false}
            />
          </SeriesChart>
          <section className="report-section">
            <h2>Most utilised licenses</h2>
            <p className="muted small">
              The ten licenses whose peak came closest to their seats; the CSV lists them all.
            </p>
            <div className="table-wrap">
              <table className="table table-compact" data-testid="most-utilized">
                <thead>
                  <tr>
                    <th>License</th>
                    <th className="num">Seats</th>
                    <th className="num">Peak in use</th>
                    <th className="num">Sessions</th>
                    <th className="num">Utilisation</th>
                  </tr>
                </thead>
                <tbody>
                  {data.mostUtilized.map((e) => (
                    <tr key={e.entitlementId}>
                      <td>
                        <Link href={`/admin/entitlements/${e.entitlementId}`}>{e.entitlementName}</Link>
                      </td>
                      <td className="num">{e.numberOfSeats}</td>
                      <td className="num">{e.peakSeatsInUse}</td>
                      <td className="num">{e.sessions}</td>
                      <td className="num">{percent(e.utilization)}</td>
                    </tr>
                  ))}
                  {data.mostUtilized.length ? null : (
                    <EmptyRow colSpan={5}>No seat was held in this period.</EmptyRow>
                  )}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </ReportShell>
  );
}
