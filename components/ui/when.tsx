import { formatDateTime, formatRelative } from "./format";

/**
 * A moment shown both ways: relative text ("3 days ago") with the absolute UTC time beside it in
 * a tooltip and in the machine-readable `dateTime`. The relative part depends on the clock, so the
 * browser's render may differ from the server's by a minute; that difference is expected.
 */
export function When({ value, now }: { value: string | Date | null | undefined; now?: Date }) {
  if (!value) return <span>—</span>;
  const iso = value instanceof Date ? value.toISOString() : value;
  const absolute = formatDateTime(iso);
  return (
    <time dateTime={iso} title={absolute} suppressHydrationWarning>
      {formatRelative(iso, now)}
    </time>
  );
}
