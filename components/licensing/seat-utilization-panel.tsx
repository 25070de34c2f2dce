"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TSeatUtilizationResponse } from "@/server/domain/licensing/sessions/seat-utilization";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";

type Window = "24h" | "7d";

/** Peak seats per bucket as bars, with the seat count as a dashed ceiling (inline SVG, like the balance chart). */
function SeatChart({ data }: { data: TSeatUtilizationResponse }) {
  const width = 1000;
  const height = 200;
  const top = 16;
  const bottom = 22;
  const max = Math.max(data.numberOfSeats, ...data.buckets.map((b) => b.peakSeats), 1);
  const y = (v: number) => height - bottom - (v / max) * (height - top - bottom);
  const barWidth = width / data.buckets.length;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      style={{ width: "100%", height: "auto", display: "block" }}
      role="img"
      aria-label="Seats in use over time"
      data-testid="seat-chart"
    >
      <line x1={0} x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.25} />
      {data.buckets.map((b, i) =>
        b.peakSeats > 0 ? (
          <rect
            key={b.from}
            x={i * barWidth + 1}
            width={Math.max(barWidth - 2, 1)}
            y={y(b.peakSeats)}
            height={y(0) - y(b.peakSeats)}
            fill="var(--accent)"
            fillOpacity={0.75}
          >
            <title>{`${formatDateTime(b.from)} – ${formatDateTime(b.to)}: ${formatCountOf(b.peakSeats, "seat")} at peak`}</title>
          </rect>
        ) : null,
      )}
      <line
        x1={0}
        x2={width}
        y1={y(data.numberOfSeats)}
        y2={y(data.numberOfSeats)}
        stroke="var(--danger)"
        strokeDasharray="6 4"
        strokeWidth={1.5}
      >
        <title>{formatCountOf(data.numberOfSeats, "seat")}</title>
      </line>
      <text x={4} y={y(data.numberOfSeats) - 4} fontSize={12} fill="var(--danger)">
        {formatCountOf(data.numberOfSeats, "seat")}
      </text>
      <text x={0} y={height - 4} fontSize={12} fill="currentColor" fillOpacity={0.6}>
        {formatDateTime(data.from)}
      </text>
      <text x={width} y={height - 4} fontSize={12} fill="currentColor" fillOpacity={0.6} textAnchor="end">
        {formatDateTime(data.to)}
      </text>
    </svg>
  );
}

/** An entitlement's live seats: in use now against numberOfSeats, and the peak over the last 24 hours or 7 days. */
export function SeatUtilizationPanel({
  entitlementId,
  linkToSessions = false,
}: {
  entitlementId: string;
  linkToSessions?: boolean;
}) {
  const trpc = useTRPC();
  const [span, setSpan] = useState<Window>("24h");
  const usage = useQuery({
    ...trpc.sessions.seatUtilization.queryOptions({ entitlementId, window: span }),
    refetchInterval: 30_000,
  });
  if (usage.error) return <ProblemAlert problem={problemFrom(usage.error)} />;
  const data = usage.data;
  return (
    <section className="panel" aria-label="Live seats" data-testid="live-seats">
      <div className="toolbar">
        <h2 style={{ margin: 0 }}>
          Live seats{data ? <span className="muted">: {data.entitlementName}</span> : null}
        </h2>
        <span className="toolbar-spacer" />
        <select aria-label="Chart window" value={span} onChange={(e) => setSpan(e.target.value as Window)}>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
        </select>
      </div>
      {data ? (
        <>
          <p data-testid="seats-in-use">
            <strong>{data.seatsInUse}</strong> of <strong>{data.numberOfSeats}</strong> seat
            {data.numberOfSeats === 1 ? "" : "s"} in use
            {data.seatsInUse >= data.numberOfSeats ? (
              <span className="badge badge-danger" style={{ marginLeft: "0.5rem" }}>
                Full
              </span>
            ) : null}
          </p>
          <SeatChart data={data} />
          <p className="muted small">
            Bars: most seats held at once in each interval ({span === "24h" ? "30 minutes" : "2 hours"}).
            Dashed line: the license&apos;s seats.
            {linkToSessions ? (
              <>
                {" "}
                <a href={`/admin/sessions?entitlementId=${entitlementId}`}>See its sessions</a>
              </>
            ) : null}
          </p>
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
