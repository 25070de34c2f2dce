import type { RouteRequest } from "./route-request.ts";

/**
 * Integration tests judge time rules over HTTP (period boundaries, suspensions) by sending
 * `X-Test-Clock: <ISO date-time>`: the request then runs with `now()` at that instant. Honoured
 * only when the process runs with LICENSING_TEST_CLOCK=1, which only the test server sets; any
 * other process ignores the header.
 */
export function testClockOf(req: RouteRequest): Date | null {
  if (process.env.LICENSING_TEST_CLOCK !== "1") return null;
  const header = req.headers.get("x-test-clock");
  if (!header) return null;
  const at = new Date(header);
  return Number.isNaN(at.getTime()) ? null : at;
}
