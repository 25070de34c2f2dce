"use client";

import { formatDate, formatDateTime, formatQuantity } from "../ui/format";
import { balanceChartShape } from "./balance-chart-shape";

type Point = { remainingAfter: number; createdAt: string; operation: string; amount: number };

/** Remaining credits after each entry (mutations and consumption), as a small SVG line chart. */
export function BalanceChart({ points }: { points: Point[] }) {
  if (points.length === 0) return <p className="muted">No balance history yet.</p>;
  const width = 480;
  const height = 120;
  const shape = balanceChartShape(
    points.map((p) => p.remainingAfter),
    width,
    height,
  );
  const only = points.length === 1 ? points[0] : null;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      role="img"
      aria-label="Balance over time"
      data-testid="balance-chart"
    >
      <line x1={0} x2={width} y1={shape.zeroY} y2={shape.zeroY} stroke="currentColor" strokeOpacity={0.2} />
      <path d={shape.path} fill="none" stroke="currentColor" strokeWidth={2} />
      {points.map((p, i) => (
        <circle key={i} cx={shape.points[i].x} cy={shape.points[i].y} r={only ? 5 : 3}>
          <title>{`${formatDateTime(p.createdAt)} · ${p.operation} ${formatQuantity(p.amount)} → ${formatQuantity(p.remainingAfter)}`}</title>
        </circle>
      ))}
      {only && shape.label ? (
        <text
          x={shape.label.x}
          y={shape.label.y}
          fontSize={18}
          textAnchor="end"
          fill="currentColor"
          data-testid="balance-chart-value"
        >
          {formatQuantity(only.remainingAfter)} credits since {formatDate(only.createdAt)}
        </text>
      ) : null}
    </svg>
  );
}
