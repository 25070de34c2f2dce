import type { TMonitoredAssetResponse } from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { tierInput, tierRow, type TierRow } from "./tier-table-editor";
import type { BandRow } from "./quota-bands-editor";

/** How a monitored asset charges: tracked only, metered against a tier table, or a credit balance. */
export type UsageKind = "None" | "Metered" | "Balance";

/**
 * What the asset editor's inputs hold. Named as the request names them, so an issue the API's
 * schema finds at `balanceUsage.name` shows at the field that edits it; numbers typed into table
 * cells stay text until `createPayload`/`updatePayload` turn the values into the request.
 */
export type AssetValues = {
  metricName: string;
  name: string;
  description: string;
  unit: string;
  category: string;
  numberFormat: string;
  metricType: string;
  /** Comma-separated. */
  tags: string;
  /** ISO 8601 duration; "" = the service's default. */
  allowedBackDatingTolerance: string;
  kind: UsageKind;
  meteredUsage: {
    consumptionPeriod: string;
    periodAnchor: string;
    accumulationMethod: string;
    usageTiers: TierRow[];
  };
  balanceUsage: {
    name: string;
    description: string;
    unit: string;
    numberFormat: string;
    initialCreditAmount: number | null;
    isUnlimitedCredits: boolean;
    /** Five-field cron; "" = no auto-balance. */
    autoBalanceCronSchedule: string;
    shouldAutoBalanceTransferCurrentCredits: boolean;
    maxAutoBalanceCreditTransferAmount: number | null;
    autoBalanceCreditAmount: number | null;
    usageQuota: BandRow[];
  };
};

export const usageKindOf = (asset?: TMonitoredAssetResponse): UsageKind =>
  asset?.meteredUsage ? "Metered" : asset?.balanceUsage ? "Balance" : "None";

/** The editor's starting values: the asset's, or a new asset's defaults. */
export function assetValues(asset?: TMonitoredAssetResponse): AssetValues {
  const m = asset?.meteredUsage;
  const b = asset?.balanceUsage;
  return {
    metricName: asset?.metricName ?? "",
    name: asset?.name ?? "",
    description: asset?.description ?? "",
    unit: asset?.unit ?? "",
    category: asset?.category ?? "",
    numberFormat: asset?.numberFormat ?? "",
    metricType: asset?.metricType ?? "CumulativeCounter",
    tags: asset?.tags.join(", ") ?? "",
    allowedBackDatingTolerance: asset?.allowedBackDatingTolerance ?? "",
    kind: usageKindOf(asset),
    meteredUsage: {
      consumptionPeriod: m?.consumptionPeriod ?? "month",
      periodAnchor: m?.periodAnchor ?? "Calendar",
      accumulationMethod: m?.accumulationMethod ?? "Sliced",
      usageTiers: (m?.usageTiers ?? []).map(tierRow),
    },
    balanceUsage: {
      name: b?.name ?? "",
      description: b?.description ?? "",
      unit: b?.unit ?? "",
      numberFormat: b?.numberFormat ?? "",
      initialCreditAmount: b?.initialCreditAmount ?? 0,
      isUnlimitedCredits: b?.isUnlimitedCredits ?? false,
      autoBalanceCronSchedule: b?.autoBalanceCronSchedule ?? "",
      shouldAutoBalanceTransferCurrentCredits: b?.shouldAutoBalanceTransferCurrentCredits ?? false,
      maxAutoBalanceCreditTransferAmount: b?.maxAutoBalanceCreditTransferAmount ?? null,
      autoBalanceCreditAmount: b?.autoBalanceCreditAmount ?? null,
      usageQuota: (b?.usageQuota ?? []).map((q) => ({
        endUsage: String(q.endUsage),
        name: q.name,
        quotaUsageLevel: q.quotaUsageLevel,
      })),
    },
  };
}

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function meteredInput(m: AssetValues["meteredUsage"]) {
  return {
    usageTiers: m.usageTiers.map(tierInput),
    consumptionPeriod: m.consumptionPeriod,
    periodAnchor: m.periodAnchor,
    accumulationMethod: m.accumulationMethod,
  };
}

function balanceInput(b: AssetValues["balanceUsage"]) {
  return {
    ...b,
    initialCreditAmount: b.initialCreditAmount ?? 0,
    autoBalanceCronSchedule: b.autoBalanceCronSchedule.trim() || null,
    // A blank threshold is NaN, so the schema names the band's field rather than taking 0.
    usageQuota: b.usageQuota.map((q) => ({
      endUsage: q.endUsage.trim() === "" ? NaN : Number(q.endUsage),
      name: q.name,
      quotaUsageLevel: q.quotaUsageLevel,
    })),
  };
}

const assetFields = (v: AssetValues) => ({
  metricName: v.metricName,
  name: v.name,
  description: v.description,
  unit: v.unit,
  category: v.category,
  numberFormat: v.numberFormat,
  metricType: v.metricType,
  tags: list(v.tags),
});

/** The create request (ZMonitoredAssetCreateRequest's input) of the editor's values. */
export function createPayload(v: AssetValues) {
  return {
    ...assetFields(v),
    allowedBackDatingTolerance: v.allowedBackDatingTolerance.trim() || null,
    meteredUsage: v.kind === "Metered" ? meteredInput(v.meteredUsage) : null,
    balanceUsage: v.kind === "Balance" ? balanceInput(v.balanceUsage) : null,
  };
}

/**
 * The merge-PATCH (ZMonitoredAssetUpdateRequest's input) of the editor's values against the asset
 * they were read from: blanks clear what the asset had, leaving metered usage detaches it.
 */
export function updatePayload(v: AssetValues, asset: TMonitoredAssetResponse) {
  const tolerance = v.allowedBackDatingTolerance.trim();
  const b = balanceInput(v.balanceUsage);
  return {
    ...assetFields(v),
    ...(tolerance
      ? { allowedBackDatingTolerance: tolerance }
      : { clearAllowedBackDatingTolerance: asset.allowedBackDatingTolerance !== null }),
    ...(v.kind === "Metered" ? { meteredUsage: meteredInput(v.meteredUsage) } : {}),
    ...(usageKindOf(asset) === "Metered" && v.kind !== "Metered" ? { clearMeteredUsage: true } : {}),
    ...(v.kind === "Balance"
      ? {
          balanceUsage: {
            ...b,
            ...(b.autoBalanceCronSchedule === null
              ? { autoBalanceCronSchedule: undefined, clearAutoBalanceCronSchedule: true }
              : {}),
            ...(b.maxAutoBalanceCreditTransferAmount === null
              ? {
                  maxAutoBalanceCreditTransferAmount: undefined,
                  clearMaxAutoBalanceCreditTransferAmount: true,
                }
              : {}),
            ...(b.autoBalanceCreditAmount === null
              ? { autoBalanceCreditAmount: undefined, clearAutoBalanceCreditAmount: true }
              : {}),
          },
        }
      : {}),
    revisionNumber: asset.revisionNumber,
  };
}
