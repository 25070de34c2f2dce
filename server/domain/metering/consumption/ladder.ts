import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { asSeverity, type Severity } from "../overage/severity.ts";
import { isQuantity, maxMicros, micros, minMicros, mulMicros, percentOf, type Micros } from "../quantity.ts";

/**
 * A meter's tiers resolved to absolute usage (docs/decisions.md "Metering"). Usage is continuous:
 * a consume from usage u of amount a covers (u, u + a], and a tier [start, end) holds the units
 * past its start, (start, end]. So a tier's policy applies to every unit past its start.
 */
export type Rung = {
  name: string;
  start: Micros;
  /** null: open (the last tier only). */
  end: Micros | null;
  severity: Severity;
  policy: string;
  baseCredits: Micros;
  creditsPerUnit: Micros;
  /** Metric of the credit balance an AllowWithOverage tier charges; "" = none (overage only reported). */
  fundingBalanceMetric: string;
};

export type Ladder = {
  rungs: Rung[];
  /** The feature value as a quantity, when it is one. */
  value: Micros | null;
  /** Usage past this point is refused (a Block tier's start, or the end of a closed last tier). */
  refuseFrom: Micros | null;
  /** The allowance: the first threshold where something happens (a tier that is not `None`, or the ladder's end). */
  limit: Micros | null;
  percentageBased: boolean;
};

const usesPercentages = (tiers: readonly TUsageTier[]) =>
  tiers.some((t) => t.startPercentage !== 0 || t.endPercentage !== 0);

/**
 * Builds the ladder of a meter from the entitlement's effective feature value and tiers:
 * - no tiers: the value (when numeric) is a hard limit, an implicit `None` tier [0, value); no value
 *   either: nothing limits the meter;
 * - tiers in usage units, or, with `enforcementType` `Percentage` (or tiers that use percentages
 *   and no enforcementType), in percentages of the value (a positive value is needed for that;
 *   otherwise the usage figures are used).
 */
export function buildLadder(input: {
  value: string | null;
  tiers: readonly TUsageTier[];
  enforcementType: string | null;
}): Ladder {
  const value = input.value !== null && isQuantity(input.value) ? maxMicros(micros(input.value), 0n) : null;
  if (input.tiers.length === 0) {
    if (value === null) return { rungs: [], value, refuseFrom: null, limit: null, percentageBased: false };
    const included: Rung = {
      name: "Included",
      start: 0n,
      end: value,
      severity: "None",
      policy: "None",
      baseCredits: 0n,
      creditsPerUnit: 0n,
      fundingBalanceMetric: "",
    };
    return { rungs: [included], value, refuseFrom: value, limit: value, percentageBased: false };
  }
  const percentageBased =
    value !== null &&
    value > 0n &&
    (input.enforcementType === "Percentage" ||
      (input.enforcementType === null && usesPercentages(input.tiers)));
  const rungs = input.tiers.map((t, i): Rung => {
    const last = i === input.tiers.length - 1;
    const start = percentageBased ? percentOf(value, micros(t.startPercentage)) : micros(t.startUsage);
    const end = percentageBased
      ? last && t.endPercentage === 0
        ? null
        : percentOf(value, micros(t.endPercentage))
      : t.endUsage === null
        ? null
        : micros(t.endUsage);
    return {
      name: t.name,
      start,
      end,
      severity: asSeverity(t.quotaUsageLevel),
      policy: t.quotaUsagePolicy,
      baseCredits: micros(t.baseCredits),
      creditsPerUnit: micros(t.creditsPerUnitOfConsumption),
      fundingBalanceMetric: t.quotaUsagePolicy === "AllowWithOverage" ? t.fundingBalanceMetric : "",
    };
  });
  const block = rungs.find((r) => r.policy === "Block");
  const lastEnd = rungs[rungs.length - 1].end;
  const refuseFrom = block ? block.start : lastEnd;
  const threshold = rungs.find((r) => r.policy !== "None");
  const limit =
    threshold && refuseFrom !== null
      ? minMicros(threshold.start, refuseFrom)
      : (threshold?.start ?? refuseFrom);
  return { rungs, value, refuseFrom, limit, percentageBased };
}

/** The tier usage is in: start < usage ≤ end (usage 0 is in no tier). */
export function rungAt(ladder: Ladder, usage: Micros): Rung | null {
  for (const r of ladder.rungs) if (usage > r.start && (r.end === null || usage <= r.end)) return r;
  return null;
}

export const severityAt = (ladder: Ladder, usage: Micros): Severity =>
  rungAt(ladder, usage)?.severity ?? "None";

/** What remains of the allowance (null: unlimited). */
export const remainingOf = (ladder: Ladder, usage: Micros): Micros | null =>
  ladder.limit === null ? null : maxMicros(ladder.limit - usage, 0n);

/** |(from, to] ∩ (start, end]|. */
function overlap(from: Micros, to: Micros, start: Micros, end: Micros | null): Micros {
  const lo = maxMicros(from, start);
  const hi = end === null ? to : minMicros(to, end);
  return hi > lo ? hi - lo : 0n;
}

export type UsageStep = {
  before: Micros;
  after: Micros;
  /** Set when the step passes the ladder's refusal point (a consume is refused; an upload counts anyway). */
  pastLimit: Rung | "LadderEnd" | null;
  overageUnits: Micros;
  /** Credits priced by AllowWithOverage tiers, per funding balance metric. */
  charges: Map<string, Micros>;
  /** Credits priced by AllowWithOverage tiers without a funding balance: reported only. */
  unfundedOverageCredits: Micros;
  creditsPriced: Micros;
};

/**
 * Moves a period's usage from `before` to `after` and prices the overage: AllowWithOverage tiers
 * price every unit past their start.
 * - `Sliced` (default): each unit at the tier it falls in (creditsPerUnitOfConsumption), plus the
 *   tier's baseCredits once, by the step that crosses its start.
 * - `Whole`: every unit past the first overage tier's start at the rate of the tier the usage
 *   reaches, plus that tier's baseCredits; the step is charged what that price exceeds the credits
 *   already priced in the period (never negative: a step never refunds).
 * A step that lowers usage (a Gauge reading) prices nothing.
 */
export function stepUsage(
  ladder: Ladder,
  before: Micros,
  after: Micros,
  accumulationMethod: string,
  creditsPricedInPeriod: Micros,
): UsageStep {
  const step: UsageStep = {
    before,
    after,
    pastLimit: null,
    overageUnits: 0n,
    charges: new Map(),
    unfundedOverageCredits: 0n,
    creditsPriced: 0n,
  };
  if (after <= before) return step;
  if (ladder.refuseFrom !== null && after > ladder.refuseFrom) {
    step.pastLimit =
      ladder.rungs.find((r) => r.policy === "Block" && r.start === ladder.refuseFrom) ?? "LadderEnd";
  }
  const overageRungs = ladder.rungs.filter((r) => r.policy === "AllowWithOverage");
  for (const r of overageRungs) step.overageUnits += overlap(before, after, r.start, r.end);
  if (overageRungs.length === 0) return step;

  const price = (rung: Rung, credits: Micros) => {
    if (credits <= 0n) return;
    step.creditsPriced += credits;
    if (rung.fundingBalanceMetric)
      step.charges.set(
        rung.fundingBalanceMetric,
        (step.charges.get(rung.fundingBalanceMetric) ?? 0n) + credits,
      );
    else step.unfundedOverageCredits += credits;
  };

  if (accumulationMethod === "Whole") {
    const reached = rungAt(ladder, after);
    if (!reached || reached.policy !== "AllowWithOverage") return step;
    const firstStart = overageRungs[0].start;
    const wholePrice = reached.baseCredits + mulMicros(reached.creditsPerUnit, after - firstStart);
    price(reached, wholePrice - creditsPricedInPeriod);
    return step;
  }
  for (const r of overageRungs) {
    const units = overlap(before, after, r.start, r.end);
    if (units === 0n) continue;
    const entered = before <= r.start && after > r.start;
    price(r, mulMicros(r.creditsPerUnit, units) + (entered ? r.baseCredits : 0n));
  }
  return step;
}

/** A stretch of usage where a consume is allowed, priced at nothing and keeps one tier and severity. */
export type FreeRegion = { lo: Micros; hi: Micros | null; severity: Severity; tierName: string | null };

/**
 * The regions where a consume needs no decision beyond arithmetic: below the first tier, and
 * inside a `None` or `Notify` tier. A consume whose usage before and after both lie in one region
 * is `Allowed`, charges nothing and changes no severity, so the consume's fast path
 * (consume-sql.ts FAST_CONSUME) can write it in one conditional statement.
 */
export function freeRegions(ladder: Ladder): FreeRegion[] {
  if (ladder.rungs.length === 0) return [{ lo: 0n, hi: null, severity: "None", tierName: null }];
  const regions: FreeRegion[] = [];
  if (ladder.rungs[0].start > 0n)
    regions.push({ lo: 0n, hi: ladder.rungs[0].start, severity: "None", tierName: null });
  for (const r of ladder.rungs)
    if (r.policy === "None" || r.policy === "Notify")
      regions.push({ lo: r.start, hi: r.end, severity: r.severity, tierName: r.name });
  return regions;
}
