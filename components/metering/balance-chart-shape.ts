/** Where a balance chart's line, points and (for a lone entry) value label go, in its viewBox. */
export type BalanceChartShape = {
  /** The SVG path of the line through the points. */
  path: string;
  points: { x: number; y: number }[];
  /** The y of the zero line. */
  zeroY: number;
  /** A lone entry's value label: at the line's right end, under it when the line is high. */
  label: { x: number; y: number } | null;
};

const INSET = 5;
const LABEL_GAP = 20;

/**
 * The chart's shape for the remaining credits after each entry, oldest first. One entry draws a flat
 * line across the whole range (the balance has stayed there since) with the entry marked at its
 * start, so a lone point is not a dot in an empty frame; more draw a line from point to point.
 */
export function balanceChartShape(values: number[], width: number, height: number): BalanceChartShape {
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  const y = (v: number) => height - INSET - ((v - min) / span) * (height - 2 * INSET);
  const x = (i: number) =>
    values.length === 1 ? INSET : (i / (values.length - 1)) * (width - 2 * INSET) + INSET;
  const points = values.map((v, i) => ({ x: x(i), y: y(v) }));
  const ends = values.length === 1 ? [points[0], { x: width - INSET, y: points[0].y }] : points;
  const path = ends.map((p, i) => `${i === 0 ? "M" : "L"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  const label =
    values.length === 1
      ? {
          x: width - INSET,
          y: points[0].y < height / 2 ? points[0].y + LABEL_GAP : points[0].y - LABEL_GAP / 2,
        }
      : null;
  return { path, points, zeroY: y(0), label };
}
