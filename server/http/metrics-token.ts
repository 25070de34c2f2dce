import { timingSafeEqual } from "node:crypto";

/** The bearer token `GET /api/metrics` wants (METRICS_TOKEN); unset: the endpoint answers 404. */
export function metricsTokenMatches(authorization: string | null): "disabled" | "ok" | "denied" {
  const expected = process.env.METRICS_TOKEN;
  if (!expected) return "disabled";
  const given = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1] ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? "ok" : "denied";
}
