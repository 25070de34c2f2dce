import { quotaUsageLevels } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { micros, type Micros } from "../quantity.ts";

/**
 * Overage severities, least to most severe (docs/decisions.md "Usage tiers"): `None`, `Low`,
 * `Medium`, `High`, `Critical`. A metered meter's severity is the quotaUsageLevel of the tier its
 * period usage is in; a balance's is the level of its matching usageQuota band.
 */
export type Severity = (typeof quotaUsageLevels)[number];

export const severityRank = (severity: string): number =>
  Math.max(0, (quotaUsageLevels as readonly string[]).indexOf(severity));

export const asSeverity = (value: string | null | undefined): Severity =>
  (quotaUsageLevels as readonly string[]).includes(value ?? "") ? (value as Severity) : "None";

export type QuotaBand = { endUsage: number; name: string; quotaUsageLevel: string };

/**
 * docs/api.md usageQuota: a band applies while the remaining balance is below its endUsage; when
 * several match, the lowest threshold wins. Null when none matches.
 */
export function matchingBand(bands: readonly QuotaBand[], remaining: Micros): QuotaBand | null {
  let best: QuotaBand | null = null;
  for (const band of bands) {
    if (remaining < micros(band.endUsage) && (!best || band.endUsage < best.endUsage)) best = band;
  }
  return best;
}

export const balanceSeverity = (bands: readonly QuotaBand[], remaining: Micros): Severity =>
  asSeverity(matchingBand(bands, remaining)?.quotaUsageLevel);

/** docs/api.md: a matching band at `Critical` severity blocks further deductions. */
export const blocksDeductions = (bands: readonly QuotaBand[], remaining: Micros): boolean =>
  matchingBand(bands, remaining)?.quotaUsageLevel === "Critical";
