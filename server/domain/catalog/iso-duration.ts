/**
 * ISO 8601 durations (`P1D`, `PT36H`, `P1Y2M3DT4H5M6.5S`, `P2W`): at least one component, a `T`
 * only before time components, a fraction only on seconds.
 */
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(?:\.\d+)?S)?)?$/;

export function isIsoDuration(value: string): boolean {
  return ISO_DURATION.test(value);
}

/** Approximate length in milliseconds (a month is 30 days, a year 365), for tolerance checks. */
export function isoDurationMillis(value: string): number | null {
  const m = ISO_DURATION.exec(value);
  if (!m) return null;
  const n = (s: string | undefined) => (s ? Number.parseFloat(s) : 0);
  const day = 86_400_000;
  return (
    n(m[1]) * 365 * day +
    n(m[2]) * 30 * day +
    n(m[3]) * 7 * day +
    n(m[4]) * day +
    n(m[6]) * 3_600_000 +
    n(m[7]) * 60_000 +
    n(m[8]) * 1000
  );
}
