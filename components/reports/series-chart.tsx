"use client";

import type { ReactNode } from "react";
import { CartesianGrid, ComposedChart, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReportInterval } from "@/server/domain/reports/report-period";

const labels: Record<ReportInterval, Intl.DateTimeFormat> = {
  day: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }),
  week: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" }),
  month: new Intl.DateTimeFormat("en-GB", { month: "short", year: "numeric", timeZone: "UTC" }),
};

/** A bucket's label on a chart's time axis (UTC, as the buckets are). */
export const bucketLabel = (from: string, interval: ReportInterval) =>
  `${interval === "week" ? "Week of " : ""}${labels[interval].format(new Date(from))}`;

/** A report's chart over time: one row per bucket (`name` on the x axis), the series as children. */
export function SeriesChart({
  label,
  testId,
  data,
  children,
}: {
  label: string;
  testId: string;
  data: Record<string, string | number>[];
  children: ReactNode;
}) {
  return (
    <section className="panel" aria-label={label}>
      <div className="report-chart" data-testid={testId}>
        <ResponsiveContainer>
          <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="name" tick={{ fontSize: 12 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend />
            {children}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}
