"use client";

import type { TMeterPeriodPoint } from "@/server/domain/metering/meters/meter.schemas";
import { formatDate, formatDateTime } from "../ui/format";

const periodLabel = (p: TMeterPeriodPoint) => (p.periodStart ? formatDate(p.periodStart) : "Lifetime");

/**
 * Usage per period as bars (consumed and uploaded stacked), with the allowance as a dashed line:
 * an inline SVG like the seat and balance charts.
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
  const max = Math.max(limit ?? 0, ...points.map((p) => p.usage), 1);
  const y = (v: number) => height - bottom - (v / max) * (height - top - bottom);
  const slot = width / Math.max(points.length, 6);
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      style={{ width: "100%", height: "auto", display: "block" }}
      role="img"
      aria-label={label}
      data-testid="usage-chart"
    >
      <line x1={0} x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.25} />
      {points.map((p, i) => {
        const x = i * slot + 2;
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
              {`${periodLabel(p)}${p.periodEnd ? ` – ${formatDateTime(p.periodEnd)}` : ""}: ${p.usage} (${p.consumedUsage} consumed, ${p.reportedUsage} uploaded)${p.creditsCharged ? `, ${p.creditsCharged} credits charged` : ""}`}
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
        <line
          x1={0}
          x2={width}
          y1={y(limit)}
          y2={y(limit)}
          stroke="var(--danger)"
          strokeDasharray="6 4"
          strokeWidth={1.5}
        >
          <title>{`Allowance ${limit}`}</title>
        </line>
      ) : null}
    </svg>
  );
}
