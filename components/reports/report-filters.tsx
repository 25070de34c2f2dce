"use client";

import type { ReportInterval } from "@/server/domain/reports/report-period";
import { EntitlementPicker } from "../entitlements/pickers";

export type ReportFilterState = {
  from: string;
  to: string;
  interval: ReportInterval;
  entitlementId: string;
};

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The default period: the last twelve calendar months including the current one (as the API's). */
export function defaultFilters(): ReportFilterState {
  const now = new Date();
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const from = new Date(Date.UTC(to.getUTCFullYear() - 1, to.getUTCMonth(), 1));
  return { from: day(from), to: day(to), interval: "month", entitlementId: "" };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The query a report procedure and its CSV download take, from the filter fields. */
export function reportQuery(f: ReportFilterState, series: boolean) {
  const entitlementId = f.entitlementId.trim();
  return {
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
    ...(series ? { interval: f.interval } : {}),
    ...(series && UUID.test(entitlementId) ? { entitlementId: entitlementId.toLowerCase() } : {}),
  };
}

/** The period (and for reports over time, the interval and one entitlement, picked by name) a report covers. */
export function ReportFilters({
  value,
  onChange,
  series,
}: {
  value: ReportFilterState;
  onChange: (next: ReportFilterState) => void;
  series: boolean;
}) {
  const set = (patch: Partial<ReportFilterState>) => onChange({ ...value, ...patch });
  return (
    <div className="report-filters" role="group" aria-label="Report period">
      <label>
        From
        <input
          type="date"
          aria-label="From"
          value={value.from}
          onChange={(e) => set({ from: e.target.value })}
        />
      </label>
      <label>
        To (exclusive)
        <input type="date" aria-label="To" value={value.to} onChange={(e) => set({ to: e.target.value })} />
      </label>
      {series ? (
        <>
          <label>
            Interval
            <select
              aria-label="Interval"
              value={value.interval}
              onChange={(e) => set({ interval: e.target.value as ReportInterval })}
            >
              <option value="day">Day</option>
              <option value="week">Week</option>
              <option value="month">Month</option>
            </select>
          </label>
          <EntitlementPicker
            label="Entitlement (optional)"
            value={value.entitlementId}
            onChange={(id) => set({ entitlementId: id })}
          />
        </>
      ) : null}
      <button type="button" className="btn btn-ghost" onClick={() => onChange(defaultFilters())}>
        Last 12 months
      </button>
    </div>
  );
}

/** The report's CSV, streamed by the back office's export route. */
export function CsvDownload({ report, query }: { report: string; query: Record<string, string> }) {
  const href = `/admin/reports/export/${report}?${new URLSearchParams(query).toString()}`;
  return (
    <a className="btn btn-primary" href={href} download data-testid="csv-download">
      Download CSV
    </a>
  );
}

export function Stat({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div className="report-stat" data-testid={testId}>
      <span className="report-stat-value">{value}</span>
      <span className="report-stat-label">{label}</span>
    </div>
  );
}
