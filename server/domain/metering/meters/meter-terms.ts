import { z } from "zod";
import { sqlOf } from "../../../db/sql.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { computeEffectiveFeatures } from "../../entitlements/entitlement/effective-features.ts";
import { ZUsageTier, type TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { isoDurationMillis } from "../../catalog/iso-duration.ts";
import { buildLadder, type Ladder } from "../consumption/ladder.ts";
import { METER_VERSION_SQL } from "./meter-version.ts";
import { usageCeilingsOf, type UsageCeilings } from "../usage/usage-ceiling.ts";

/**
 * How a tracked metric is metered: `Metered` (meteredUsage: tiers, periods), `Balance` (a credit
 * balance: the amount is credits) or `Tracked` (neither: counted, never limited).
 */
export type MeterKind = "Metered" | "Balance" | "Tracked";

export type MeterTerms = {
  kind: MeterKind;
  monitoredAssetId: string;
  metricName: string;
  metricType: string;
  /** allowedBackDatingTolerance in ms; null = only the 90-day usage-age limit. */
  backDatingToleranceMs: number | null;
  meteredUsageId: string | null;
  balanceUsageId: string | null;
  consumptionPeriod: string;
  periodAnchor: string;
  accumulationMethod: string;
  /** The effective feature that governs the metric (value and tiers), when one does. */
  featureCode: string | null;
  featureEnabled: boolean;
  ladder: Ladder;
  /** What one record and one batch may report (usage-ceiling.ts). */
  ceilings: UsageCeilings;
};

/** An entitlement's meters, as computed at one version (meter-version.ts). */
export type EntitlementMeters = {
  tenantId: string;
  entitlementId: string;
  /** Where `EntitlementStart` periods count from: notValidBeforeDateTime, else creation. */
  anchorAt: Date;
  version: string;
  /** Add-on grants start or end then: the effective features change with no row changing. */
  validUntil: number;
  meters: Map<string, MeterTerms>;
};

const ZTiers = z.array(ZUsageTier);
const tiersOf = (value: unknown): TUsageTier[] => {
  const parsed = ZTiers.safeParse(value);
  return parsed.success ? parsed.data : [];
};

const MAX_CACHED = 20_000;
const cache = new Map<string, EntitlementMeters>();
const cacheKey = (tenantId: string, entitlementId: string) => `${tenantId}:${entitlementId}`;

/** Forgets an entitlement's terms (a hot statement saw another version). */
export function forgetEntitlementMeters(tenantId: string, entitlementId: string): void {
  cache.delete(cacheKey(tenantId, entitlementId));
}

/**
 * The entitlement's meters: from the per-process cache while still valid in time, else computed
 * (the hot statements check the version and ask again with `refresh` when it moved). Null when
 * the entitlement does not exist.
 */
export async function entitlementMeters(
  db: TenantDbOrTx,
  tenantId: string,
  entitlementId: string,
  options: { refresh?: boolean } = {},
): Promise<EntitlementMeters | null> {
  const key = cacheKey(tenantId, entitlementId);
  const cached = cache.get(key);
  if (cached && !options.refresh && cached.validUntil > now().getTime()) return cached;
  const computed = await computeEntitlementMeters(db, tenantId, entitlementId);
  if (!computed) {
    cache.delete(key);
    return null;
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, computed);
  return computed;
}

async function computeEntitlementMeters(
  db: TenantDbOrTx,
  tenantId: string,
  entitlementId: string,
): Promise<EntitlementMeters | null> {
  // The version first: whatever changes while the rest is read makes the next check miss.
  const [{ version }] = await sqlOf(db).query<{ version: string }>(
    { name: "metering.meter_version", text: METER_VERSION_SQL },
    [tenantId, entitlementId],
  );
  const entitlement = await db.entitlement.findUnique({ where: { id: entitlementId } });
  if (!entitlement) return null;
  const at = now();
  const [assets, features, grants] = await Promise.all([
    db.monitoredAsset.findMany({
      where: { ownerKind: "Entitlement", entitlementId },
      include: { meteredUsages: true, balanceUsages: { select: { id: true } } },
    }),
    computeEffectiveFeatures(db, entitlement, at),
    db.addOnGrant.findMany({
      where: { entitlementId, isRevoked: false },
      select: { startsAt: true, expiresAt: true },
    }),
  ]);
  const boundaries = grants
    .flatMap((g) => [g.startsAt.getTime(), g.expiresAt?.getTime() ?? Infinity])
    .filter((t) => t > at.getTime());
  const meters = new Map<string, MeterTerms>();
  for (const asset of assets) {
    const metered = asset.meteredUsages[0] ?? null;
    const balance = asset.balanceUsages[0] ?? null;
    const candidates = features.filter((f) => f.metricName === asset.metricName);
    const feature = candidates.find((f) => f.isEnabled) ?? candidates[0] ?? null;
    const tiers = feature?.usageTiers.length ? tiersOf(feature.usageTiers) : tiersOf(metered?.usageTiers);
    meters.set(asset.metricName, {
      kind: balance ? "Balance" : metered ? "Metered" : "Tracked",
      monitoredAssetId: asset.id,
      metricName: asset.metricName,
      metricType: asset.metricType,
      backDatingToleranceMs: asset.allowedBackDatingTolerance
        ? isoDurationMillis(asset.allowedBackDatingTolerance)
        : null,
      meteredUsageId: metered?.id ?? null,
      balanceUsageId: balance?.id ?? null,
      consumptionPeriod: metered?.consumptionPeriod ?? "",
      periodAnchor: metered?.periodAnchor ?? "Calendar",
      accumulationMethod: metered?.accumulationMethod ?? "Sliced",
      featureCode: feature?.featureCode ?? null,
      featureEnabled: feature?.isEnabled ?? true,
      ceilings: usageCeilingsOf(asset),
      ladder: metered
        ? buildLadder({
            value: feature?.value ?? null,
            tiers,
            enforcementType: feature?.enforcementType ?? null,
          })
        : buildLadder({ value: null, tiers: [], enforcementType: null }),
    });
  }
  return {
    tenantId,
    entitlementId,
    anchorAt: entitlement.notValidBeforeDateTime ?? entitlement.createdAt,
    version,
    validUntil: Math.min(...boundaries, at.getTime() + 24 * 3_600_000),
    meters,
  };
}
