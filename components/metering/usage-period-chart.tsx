"use client";

import type { TMeterPeriodPoint } from "@/server/domain/metering/meters/meter.schemas";
import { formatCompact, formatDate, formatDateTime, formatQuantity } from "../ui/format";

const periodLabel = (p: TMeterPeriodPoint) => (p.periodStart ? formatDate(p.periodStart) : "Lifetime");

/**
 * Usage per period as bars (consumed and uploaded stacked) over a labelled usage axis, with the
 * allowance as a labelled dashed line: an inline SVG like the seat and balance charts.
 */
export function UsagePeriodChart({
  points,
  limit,
  label,
}: {
  points: TMeterPeriodPoint[];
  limit: number | null;
  label: string;
}) {
  if (points.length === 0) return <p className="muted small">No usage recorded yet.</p>;
  const width = 600;
  const height = 160;
  const top = 14;
  const bottom = 20;
  // Room for the usage axis' labels on the left.
  const left = 48;
  const max = Math.max(limit ?? 0, ...points.map((p) => p.usage), 1);
  const y = (v: number) => height - bottom - (v / max) * (height - top - bottom);
  const slot = (width - left) / Math.max(points.length, 6);
  const axisLabel = { fontSize: 10, textAnchor: "end" as const, fill: "currentColor", fillOpacity: 0.6 };
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      style={{ width: "100%", height: "auto", display: "block" }}
      role="img"
      aria-label={label}
      data-testid="usage-chart"
    >
      <line x1={left} x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.25} />
      <line x1={left} x2={left} y1={top} y2={y(0)} stroke="currentColor" strokeOpacity={0.25} />
      <text x={left - 4} y={top + 4} {...axisLabel} data-testid="usage-axis-max">
        {formatCompact(max)}
      </text>
      <text x={left - 4} y={y(0)} {...axisLabel}>
        0
      </text>
      <text x={2} y={height - 5} fontSize={10} fill="currentColor" fillOpacity={0.6}>
        Usage
      </text>
      {points.map((p, i) => {
        const x = left + i * slot + 2;
        const w = Math.max(slot - 4, 2);
        return (
          <g key={p.periodKey}>
            <rect
              x={x}
              width={w}
              y={y(p.consumedUsage)}
              height={y(0) - y(p.consumedUsage)}
              fill="var(--accent)"
              fillOpacity={0.8}
            />
            <rect
              x={x}
              width={w}
              y={y(p.usage)}
              height={y(p.consumedUsage) - y(p.usage)}
              fill="var(--accent)"
              fillOpacity={0.4}
            />
            <title>
              {`${periodLabel(p)}${p.periodEnd ? ` – ${formatDateTime(p.periodEnd)}` : ""}: ${formatQuantity(p.usage)} (${formatQuantity(p.consumedUsage)} consumed, ${formatQuantity(p.reportedUsage)} uploaded)${p.creditsCharged ? `, ${formatQuantity(p.creditsCharged)} credits charged` : ""}`}
            </title>
            <text
              x={x + w / 2}
              y={height - 5}
              fontSize={10}
              textAnchor="middle"
              fill="currentColor"
              fillOpacity={0.6}
            >
              {periodLabel(p)}
            </text>
          </g>
        );
      })}
      {limit !== null ? (
        <g>
          <line
            x1={left}
            x2={width}
            y1={y(limit)}
            y2={y(limit)}
            stroke="var(--danger)"
            strokeDasharray="6 4"
            strokeWidth={1.5}
          >
            <title>{`Allowance ${formatQuantity(limit)}`}</title>
          </line>
          <text x={width - 2} y={y(limit) - 3} fontSize={10} textAnchor="end" fill="var(--danger)">
            Allowance {formatQuantity(limit)}
          </text>
        </g>
      ) : null}
    </svg>
  );
}
