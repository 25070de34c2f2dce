import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { now } from "../../../clock.ts";
import { notFound } from "../../../core/errors.ts";
import { ZClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";

/** The windows the live-seats chart offers, each with its bucket count. */
export const seatUtilizationWindows = {
  "24h": { hours: 24, buckets: 48 },
  "7d": { hours: 168, buckets: 84 },
} as const;
export type SeatUtilizationWindow = keyof typeof seatUtilizationWindows;

export const ZSeatUtilizationRequest = z.object({
  entitlementId: z.string().uuid(),
  window: z.enum(["24h", "7d"]).default("24h"),
});

export const ZSeatUtilizationResponse = z.object({
  entitlementId: z.string().uuid(),
  entitlementName: z.string(),
  numberOfSeats: z.number().int(),
  /** Sessions holding a seat now (not revoked, seatHeldUntil ahead): what activation counts. */
  seatsInUse: z.number().int(),
  from: z.string(),
  to: z.string(),
  /** Consecutive buckets covering [from, to); peakSeats = most seats held at once inside the bucket. */
  buckets: z.array(z.object({ from: z.string(), to: z.string(), peakSeats: z.number().int() })),
});
export type TSeatUtilizationResponse = z.infer<typeof ZSeatUtilizationResponse>;

/** A session's hold on a seat: from activation until it was revoked or its seat hold ran out, whichever came first. */
export type SeatInterval = { start: Date; end: Date };
export type SeatBucket = { from: Date; to: Date; peakSeats: number };

/**
 * Splits [from, to) into `count` equal buckets and gives each the peak number of intervals
 * overlapping at one instant inside it. Intervals are half-open: a seat freed at t and one taken
 * at t never count together. One sweep over the sorted start/end events.
 */
export function bucketSeatUtilization(
  intervals: SeatInterval[],
  from: Date,
  to: Date,
  count: number,
): SeatBucket[] {
  const start = from.getTime();
  const width = (to.getTime() - start) / count;
  const events: [number, 1 | -1][] = [];
  for (const interval of intervals) {
    const s = Math.max(interval.start.getTime(), start);
    const e = Math.min(interval.end.getTime(), to.getTime());
    if (e <= s) continue;
    events.push([s, 1], [e, -1]);
  }
  // At equal times, ends before starts (half-open intervals).
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);

  const buckets: SeatBucket[] = [];
  let current = 0;
  let next = 0;
  for (let i = 0; i < count; i++) {
    const bucketStart = start + i * width;
    const bucketEnd = i === count - 1 ? to.getTime() : start + (i + 1) * width;
    while (next < events.length && events[next][0] <= bucketStart) current += events[next++][1];
    let peak = current;
    while (next < events.length && events[next][0] < bucketEnd) {
      current += events[next++][1];
      peak = Math.max(peak, current);
    }
    buckets.push({ from: new Date(bucketStart), to: new Date(bucketEnd), peakSeats: peak });
  }
  return buckets;
}

/** An entitlement's live seats (in use vs numberOfSeats) and their use over the last 24 hours or 7 days. */
export async function getSeatUtilization(
  ctx: DomainContext,
  entitlementId: string,
  window: SeatUtilizationWindow,
): Promise<TSeatUtilizationResponse> {
  const entitlement = await ctx.db.entitlement.findFirst({
    where: { id: entitlementId },
    select: { id: true, name: true, claimBasedActivation: true },
  });
  if (!entitlement) throw notFound("Entitlement");
  const to = now();
  const { hours, buckets } = seatUtilizationWindows[window];
  const from = new Date(to.getTime() - hours * 3600_000);
  const [sessions, seatsInUse] = await Promise.all([
    ctx.db.licenseSession.findMany({
      where: {
        entitlementId,
        activatedAt: { lt: to },
        seatHeldUntil: { gt: from },
        OR: [{ revokedAt: null }, { revokedAt: { gt: from } }],
      },
      select: { activatedAt: true, revokedAt: true, seatHeldUntil: true },
    }),
    ctx.db.licenseSession.count({ where: { entitlementId, revokedAt: null, seatHeldUntil: { gt: to } } }),
  ]);
  const intervals = sessions.map((s) => ({
    start: s.activatedAt,
    end: s.revokedAt && s.revokedAt < s.seatHeldUntil ? s.revokedAt : s.seatHeldUntil,
  }));
  return {
    entitlementId,
    entitlementName: entitlement.name,
    numberOfSeats: ZClaimBasedActivation.parse(entitlement.claimBasedActivation ?? {}).numberOfSeats,
    seatsInUse,
    from: from.toISOString(),
    to: to.toISOString(),
    buckets: bucketSeatUtilization(intervals, from, to, buckets).map((b) => ({
      from: b.from.toISOString(),
      to: b.to.toISOString(),
      peakSeats: b.peakSeats,
    })),
  };
}
