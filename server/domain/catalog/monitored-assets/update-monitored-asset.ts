import type { DomainContext } from "../../context.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { zodIssues } from "../../../core/zod-issues.ts";
import {
  ZBalanceUsageInput,
  type TBalanceUsagePatch,
  type TMeteredUsagePatch,
  type TMonitoredAssetUpdateRequest,
} from "./monitored-asset.schemas.ts";
import type { TUsageTier } from "./usage-tier.schemas.ts";
import { setRecordTags } from "../tags/record-tags.ts";
import { lockLiveProduct } from "../products/product-lock.ts";
import { loadMonitoredAsset, monitoredAssetInclude } from "./monitored-asset-response.ts";
import { balanceMetricNames, checkTiers, metricNameTaken } from "./monitored-asset-rules.ts";
import { balanceUsageData, storedBands, storedTiers } from "./usage-data.ts";

type AssetWithUsage = NonNullable<Awaited<ReturnType<typeof findAsset>>>;
const findAsset = (tx: TenantTx, id: string) =>
  tx.monitoredAsset.findUnique({ where: { id }, include: monitoredAssetInclude });

/**
 * PATCH /admin/monitored-assets/{id}: merge. meteredUsage and balanceUsage merge into the object
 * the asset has, or attach one when it has none; an asset never carries both (clear the metered
 * usage, or delete the balance, to switch). A product's asset follows the product's lock.
 */
export async function updateMonitoredAsset(
  ctx: DomainContext,
  id: string,
  input: TMonitoredAssetUpdateRequest,
) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const found = await findAsset(tx, id);
      if (!found) throw notFound("Monitored asset");
      if (found.ownerKind === "Product" && found.productId)
        await lockLiveProduct(tx, ctx.tenantId, found.productId);
      const asset = (await findAsset(tx, id))!;
      if (input.revisionNumber && input.revisionNumber !== asset.revisionNumber)
        throw stale(input.revisionNumber);

      const metered = asset.meteredUsages[0];
      const balance = asset.balanceUsages[0];
      if (input.meteredUsage && balance) {
        throw validationError(
          "This asset carries a balance; delete the balance before attaching metered usage.",
          [
            {
              path: "meteredUsage",
              message: "The asset carries balanceUsage (DELETE /admin/asset-balances/{balanceId} first).",
            },
          ],
        );
      }
      if (input.balanceUsage && metered && !input.clearMeteredUsage) {
        throw validationError(
          "This asset carries metered usage; clear it (clearMeteredUsage: true) to attach a balance.",
          [{ path: "balanceUsage", message: "The asset carries meteredUsage." }],
        );
      }
      if (input.meteredUsage) await writeMeteredUsage(tx, ctx.tenantId, asset, input.meteredUsage);
      if (input.clearMeteredUsage && metered) await tx.meteredUsage.delete({ where: { id: metered.id } });
      if (input.balanceUsage) await writeBalanceUsage(tx, ctx.tenantId, asset, input.balanceUsage);

      const { count } = await tx.monitoredAsset.updateMany({
        where: { id, ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}) },
        data: {
          ...(input.metricName != null ? { metricName: input.metricName } : {}),
          ...(input.name != null ? { name: input.name } : {}),
          ...(input.description != null ? { description: input.description } : {}),
          ...(input.unit != null ? { unit: input.unit } : {}),
          ...(input.category != null ? { category: input.category } : {}),
          ...(input.numberFormat != null ? { numberFormat: input.numberFormat } : {}),
          ...(input.metricType != null ? { metricType: input.metricType } : {}),
          ...(input.clearAllowedBackDatingTolerance
            ? { allowedBackDatingTolerance: null }
            : input.allowedBackDatingTolerance != null
              ? { allowedBackDatingTolerance: input.allowedBackDatingTolerance }
              : {}),
          ...(input.clearUsageRecordCeiling
            ? { usageRecordCeiling: null }
            : input.usageRecordCeiling != null
              ? { usageRecordCeiling: input.usageRecordCeiling }
              : {}),
          ...(input.clearUsageBatchCeiling
            ? { usageBatchCeiling: null }
            : input.usageBatchCeiling != null
              ? { usageBatchCeiling: input.usageBatchCeiling }
              : {}),
          revisionNumber: { increment: 1 },
        },
      });
      if (count === 0) throw stale(input.revisionNumber);
      await setRecordTags(tx, ctx.tenantId, "MonitoredAsset", id, input.tags);
      return (await loadMonitoredAsset(tx, id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error) && input.metricName) throw metricNameTaken(input.metricName);
    throw error;
  }
}

const stale = (revision: number | undefined) =>
  new AppError(
    "concurrency.revision_mismatch",
    `The monitored asset was changed since revision ${revision}; reload it and try again.`,
  );

async function writeMeteredUsage(
  tx: TenantTx,
  tenantId: string,
  asset: AssetWithUsage,
  patch: TMeteredUsagePatch,
) {
  const current = asset.meteredUsages[0];
  const usageTiers = patch.usageTiers ?? (current?.usageTiers as TUsageTier[] | undefined) ?? [];
  checkTiers(usageTiers, await balanceMetricNames(tx, [asset.ownerId]));
  const data = {
    usageTiers: storedTiers(usageTiers),
    consumptionPeriod: patch.consumptionPeriod ?? current?.consumptionPeriod ?? "",
    periodAnchor: patch.periodAnchor ?? current?.periodAnchor ?? "Calendar",
    accumulationMethod: patch.accumulationMethod ?? current?.accumulationMethod ?? "Sliced",
    suspendedUntilAt: patch.clearSuspendedUntilAt
      ? null
      : patch.suspendedUntilAt
        ? new Date(patch.suspendedUntilAt)
        : (current?.suspendedUntilAt ?? null),
  };
  if (current) await tx.meteredUsage.update({ where: { id: current.id }, data });
  else await tx.meteredUsage.create({ data: { tenantId, monitoredAssetId: asset.id, ...data } });
}

async function writeBalanceUsage(
  tx: TenantTx,
  tenantId: string,
  asset: AssetWithUsage,
  patch: TBalanceUsagePatch,
) {
  const current = asset.balanceUsages[0];
  const isTemplate = asset.ownerKind === "Product";
  if (!current) {
    // Attaching a balance: the patch must describe a whole one (a name at least).
    const given = Object.fromEntries(
      Object.entries(patch).filter(([key, v]) => v !== null && v !== undefined && !key.startsWith("clear")),
    );
    const parsed = ZBalanceUsageInput.safeParse(given);
    if (!parsed.success) {
      const issues = zodIssues(parsed.error, "balanceUsage");
      throw validationError(
        `Invalid balanceUsage: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
        issues,
      );
    }
    await tx.balanceUsage.create({
      data: { tenantId, monitoredAssetId: asset.id, ...balanceUsageData(parsed.data, { isTemplate }) },
    });
    return;
  }
  const set = <K extends string, V>(key: K, value: V | null | undefined) =>
    value != null ? { [key]: value } : {};
  await tx.balanceUsage.update({
    where: { id: current.id },
    data: {
      ...set("name", patch.name),
      ...set("description", patch.description),
      ...set("unit", patch.unit),
      ...set("numberFormat", patch.numberFormat),
      ...set("initialCreditAmount", patch.initialCreditAmount),
      ...(isTemplate && patch.initialCreditAmount != null ? { totalCredits: patch.initialCreditAmount } : {}),
      ...set("isUnlimitedCredits", patch.isUnlimitedCredits),
      ...(patch.usageQuota ? { usageQuota: storedBands(patch.usageQuota) } : {}),
      ...(patch.clearSuspendedUntilAt
        ? { suspendedUntilAt: null }
        : patch.suspendedUntilAt
          ? { suspendedUntilAt: new Date(patch.suspendedUntilAt) }
          : {}),
      ...(patch.clearAutoBalanceCronSchedule
        ? { autoBalanceCronSchedule: null }
        : set("autoBalanceCronSchedule", patch.autoBalanceCronSchedule)),
      ...set("shouldAutoBalanceTransferCurrentCredits", patch.shouldAutoBalanceTransferCurrentCredits),
      ...(patch.clearMaxAutoBalanceCreditTransferAmount
        ? { maxAutoBalanceCreditTransferAmount: null }
        : set("maxAutoBalanceCreditTransferAmount", patch.maxAutoBalanceCreditTransferAmount)),
      ...(patch.clearAutoBalanceCreditAmount
        ? { autoBalanceCreditAmount: null }
        : set("autoBalanceCreditAmount", patch.autoBalanceCreditAmount)),
    },
  });
}
