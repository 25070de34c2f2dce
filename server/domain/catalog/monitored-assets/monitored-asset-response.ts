import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TMonitoredAssetResponse, TUsageQuotaBand } from "./monitored-asset.schemas.ts";
import type { TUsageTier } from "./usage-tier.schemas.ts";
import { readRecordTags } from "../tags/record-tags.ts";
import { iso } from "../../../core/iso-date.ts";

type Decimalish = { toNumber(): number } | number;
const num = (d: Decimalish) => (typeof d === "number" ? d : d.toNumber());
const numOrNull = (d: Decimalish | null) => (d === null ? null : num(d));

type MeteredUsageRow = {
  id: string;
  suspendedUntilAt: Date | null;
  lastReportedOverageSeverityStatus: string;
  usageTiers: unknown;
  consumptionPeriod: string;
  periodAnchor: string;
  accumulationMethod: string;
};

type BalanceUsageRow = {
  id: string;
  name: string;
  description: string;
  creditsUsed: Decimalish;
  totalCredits: Decimalish;
  cumulativeCreditsUsed: Decimalish;
  unfundedCredits: Decimalish;
  lastUnfundedAt: Date | null;
  unit: string;
  numberFormat: string;
  lastDeposit: Date | null;
  usageQuota: unknown;
  suspendedUntilAt: Date | null;
  overageSeverityStatus: string;
  initialCreditAmount: Decimalish;
  isUnlimitedCredits: boolean;
  autoBalanceCronSchedule: string | null;
  lastAutoBalanceDate: Date | null;
  shouldAutoBalanceTransferCurrentCredits: boolean;
  maxAutoBalanceCreditTransferAmount: Decimalish | null;
  autoBalanceCreditAmount: Decimalish | null;
};

export type MonitoredAssetRow = {
  id: string;
  productId: string | null;
  entitlementId: string | null;
  offerId: string | null;
  sourceAssetId: string | null;
  metricName: string;
  name: string;
  description: string;
  unit: string;
  category: string;
  numberFormat: string;
  metricType: string;
  allowedBackDatingTolerance: string | null;
  usageRecordCeiling: Decimalish | null;
  usageBatchCeiling: Decimalish | null;
  createdAt: Date;
  updatedAt: Date;
  revisionNumber: number;
  meteredUsages: MeteredUsageRow[];
  balanceUsages: BalanceUsageRow[];
};

/** Prisma `include` for an asset's usage objects (at most one of each by a unique index). */
export const monitoredAssetInclude = { meteredUsages: true, balanceUsages: true } as const;

export function toMonitoredAssetResponse(row: MonitoredAssetRow, tags: string[]): TMonitoredAssetResponse {
  const metered = row.meteredUsages[0] ?? null;
  const balance = row.balanceUsages[0] ?? null;
  return {
    id: row.id,
    entitlementId: row.entitlementId,
    offerId: row.offerId,
    productId: row.productId,
    sourceAssetId: row.sourceAssetId,
    metricName: row.metricName,
    name: row.name,
    description: row.description,
    unit: row.unit,
    category: row.category,
    numberFormat: row.numberFormat,
    tags,
    metricType: row.metricType,
    usageRecordCeiling: numOrNull(row.usageRecordCeiling),
    usageBatchCeiling: numOrNull(row.usageBatchCeiling),
    meteredUsageId: metered?.id ?? null,
    balanceUsageId: balance?.id ?? null,
    meteredUsage: metered && {
      id: metered.id,
      suspendedUntilAt: iso(metered.suspendedUntilAt),
      lastReportedOverageSeverityStatus: metered.lastReportedOverageSeverityStatus,
      usageTiers: metered.usageTiers as TUsageTier[],
      consumptionPeriod: metered.consumptionPeriod,
      periodAnchor: metered.periodAnchor,
      accumulationMethod: metered.accumulationMethod,
    },
    balanceUsage: balance && {
      id: balance.id,
      name: balance.name,
      description: balance.description,
      creditsUsed: num(balance.creditsUsed),
      totalCredits: num(balance.totalCredits),
      cumulativeCreditsUsed: num(balance.cumulativeCreditsUsed),
      unfundedCredits: num(balance.unfundedCredits),
      lastUnfundedAt: iso(balance.lastUnfundedAt),
      unit: balance.unit,
      numberFormat: balance.numberFormat,
      lastDeposit: iso(balance.lastDeposit),
      usageQuota: balance.usageQuota as TUsageQuotaBand[],
      suspendedUntilAt: iso(balance.suspendedUntilAt),
      overageSeverityStatus: balance.overageSeverityStatus,
      initialCreditAmount: num(balance.initialCreditAmount),
      isUnlimitedCredits: balance.isUnlimitedCredits,
      autoBalanceCronSchedule: balance.autoBalanceCronSchedule,
      lastAutoBalanceDate: iso(balance.lastAutoBalanceDate),
      shouldAutoBalanceTransferCurrentCredits: balance.shouldAutoBalanceTransferCurrentCredits,
      maxAutoBalanceCreditTransferAmount: numOrNull(balance.maxAutoBalanceCreditTransferAmount),
      autoBalanceCreditAmount: numOrNull(balance.autoBalanceCreditAmount),
    },
    allowedBackDatingTolerance: row.allowedBackDatingTolerance,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
  };
}

/** Assets with their tags, in the order given. */
export async function toMonitoredAssetResponses(
  db: TenantDbOrTx,
  rows: MonitoredAssetRow[],
): Promise<TMonitoredAssetResponse[]> {
  const tags = await readRecordTags(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toMonitoredAssetResponse(row, tags.get(row.id) ?? []));
}

/** One asset by id with its usage objects and tags, or null. */
export async function loadMonitoredAsset(
  db: TenantDbOrTx,
  id: string,
): Promise<TMonitoredAssetResponse | null> {
  const row = await db.monitoredAsset.findUnique({ where: { id }, include: monitoredAssetInclude });
  if (!row) return null;
  return (await toMonitoredAssetResponses(db, [row]))[0];
}
