import type { TenantDbOrTx, TenantTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { notFound, validationError, type FieldIssue } from "../../../core/errors.ts";
import { validateFeatureValue } from "../../catalog/feature-catalog/feature-value.ts";
import { liveFeaturesByCode, normalizeFeatureCode, productsByIds } from "../../catalog/pricing-lookups.ts";
import type { TEntitlementFeature, TFeatureSetting } from "../entitlement/policies.schemas.ts";

/**
 * The features of an offer or a direct entitlement: a snapshot of its products' live features
 * (docs/api.md "features"), with the given settings applied by featureCode. A snapshot never follows
 * later product edits.
 */
export async function snapshotFeatures(
  db: TenantDbOrTx,
  productIds: readonly string[],
  settings: readonly TFeatureSetting[],
): Promise<TEntitlementFeature[]> {
  const products = await productsByIds(db, productIds);
  const missing = productIds.find((id) => !products.get(id) || products.get(id)!.isDeleted);
  if (missing) throw notFound(`Product ${missing}`);
  if (!productIds.length) {
    if (settings.length)
      throw validationError("features can be set only on features of the products.", [
        { path: "features", message: "No products are given." },
      ]);
    return [];
  }
  const rows = await db.productFeature.findMany({
    where: { productId: { in: [...productIds] }, isDeleted: false },
    include: { featureCatalog: true },
    orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }, { id: "asc" }],
  });
  const features: TEntitlementFeature[] = rows
    .sort((a, b) => productIds.indexOf(a.productId) - productIds.indexOf(b.productId))
    .map((row) => ({
      id: row.id,
      featureCode: row.featureCatalog.featureCode,
      productId: row.productId,
      moduleName: row.moduleName,
      name: row.name,
      description: row.description,
      value: row.value,
      isEnabled: row.isEnabled,
      isAvailableDuringTrialPeriod: row.isAvailableDuringTrialPeriod,
      isAvailableDuringGracePeriod: row.isAvailableDuringGracePeriod,
      isPaidFeature: row.isPaidFeature,
      canModifyValueOnEntitlement: row.canModifyValueOnEntitlement,
      includeInLicenseToken: row.includeInLicenseToken,
      meteredAssetId: null,
      featureExpiration: null,
      catalogLifecycleStatus: row.featureCatalog.lifecycleStatus,
    }));
  return applyFeatureSettings(db, features, settings);
}

/** Applies settings by featureCode to a features snapshot (values checked against the catalog entry). */
export async function applyFeatureSettings(
  db: TenantDbOrTx,
  features: TEntitlementFeature[],
  settings: readonly TFeatureSetting[],
): Promise<TEntitlementFeature[]> {
  const entries = await liveFeaturesByCode(
    db,
    settings.map((s) => s.featureCode),
  );
  const issues: FieldIssue[] = [];
  settings.forEach((setting, i) => {
    const code = normalizeFeatureCode(setting.featureCode);
    const targets = features.filter((f) => f.featureCode === code);
    if (!targets.length) {
      issues.push({
        path: `features.${i}.featureCode`,
        message: `None of the products has the feature ${code}.`,
      });
      return;
    }
    const entry = entries.get(code);
    if (setting.value !== undefined && setting.value !== null && entry) {
      const problem = validateFeatureValue(entry, setting.value);
      if (problem) issues.push({ path: `features.${i}.value`, message: problem });
    }
    for (const f of targets) {
      if (setting.value !== undefined) f.value = setting.value;
      if (setting.isEnabled !== undefined) f.isEnabled = setting.isEnabled;
      if (setting.canModifyValueOnEntitlement !== undefined)
        f.canModifyValueOnEntitlement = setting.canModifyValueOnEntitlement;
      if (setting.includeInLicenseToken !== undefined)
        f.includeInLicenseToken = setting.includeInLicenseToken;
      if (setting.featureExpiration !== undefined) f.featureExpiration = setting.featureExpiration;
    }
  });
  if (issues.length)
    throw validationError(
      `Invalid features: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      issues,
    );
  return features;
}

type Owner = { kind: "Entitlement" | "Offer"; id: string; status: string };

/**
 * Copies monitored assets (with their metered usage and balance) onto an offer or entitlement.
 * The source is either the products' own assets or another owner's copies (an entitlement made
 * from an offer copies the offer's). A copied balance starts with its initialCreditAmount as
 * totalCredits and nothing used (docs/api.md: credits available when the entitlement is created).
 * Returns metricName → copy id.
 */
export async function copyMonitoredAssets(
  tx: TenantTx,
  tenantId: string,
  owner: Owner,
  source: { productIds: readonly string[] } | { ownerId: string },
): Promise<Map<string, string>> {
  const where =
    "ownerId" in source
      ? { ownerId: source.ownerId }
      : { ownerKind: "Product", productId: { in: [...source.productIds] } };
  const assets = await tx.monitoredAsset.findMany({
    where,
    include: { meteredUsages: true, balanceUsages: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const copies = new Map<string, string>();
  for (const asset of assets) {
    if (copies.has(asset.metricName)) continue; // two products with one metric: the first product's wins
    const copy = await tx.monitoredAsset.create({
      data: {
        tenantId,
        ownerKind: owner.kind,
        ownerId: owner.id,
        productId: asset.productId,
        entitlementId: owner.kind === "Entitlement" ? owner.id : null,
        offerId: owner.kind === "Offer" ? owner.id : null,
        ownerStatus: owner.status,
        sourceAssetId: asset.sourceAssetId ?? asset.id,
        metricName: asset.metricName,
        name: asset.name,
        description: asset.description,
        unit: asset.unit,
        category: asset.category,
        numberFormat: asset.numberFormat,
        metricType: asset.metricType,
        allowedBackDatingTolerance: asset.allowedBackDatingTolerance,
        usageRecordCeiling: asset.usageRecordCeiling,
        usageBatchCeiling: asset.usageBatchCeiling,
      },
    });
    copies.set(asset.metricName, copy.id);
    for (const m of asset.meteredUsages) {
      await tx.meteredUsage.create({
        data: {
          tenantId,
          monitoredAssetId: copy.id,
          usageTiers: m.usageTiers as Prisma.InputJsonValue,
          consumptionPeriod: m.consumptionPeriod,
          periodAnchor: m.periodAnchor,
          accumulationMethod: m.accumulationMethod,
          suspendedUntilAt: m.suspendedUntilAt,
        },
      });
    }
    for (const b of asset.balanceUsages) {
      await tx.balanceUsage.create({
        data: {
          tenantId,
          monitoredAssetId: copy.id,
          name: b.name,
          description: b.description,
          unit: b.unit,
          numberFormat: b.numberFormat,
          initialCreditAmount: b.initialCreditAmount,
          totalCredits: b.initialCreditAmount,
          creditsUsed: 0,
          cumulativeCreditsUsed: 0,
          isUnlimitedCredits: b.isUnlimitedCredits,
          usageQuota: b.usageQuota as Prisma.InputJsonValue,
          suspendedUntilAt: b.suspendedUntilAt,
          autoBalanceCronSchedule: b.autoBalanceCronSchedule,
          shouldAutoBalanceTransferCurrentCredits: b.shouldAutoBalanceTransferCurrentCredits,
          maxAutoBalanceCreditTransferAmount: b.maxAutoBalanceCreditTransferAmount,
          autoBalanceCreditAmount: b.autoBalanceCreditAmount,
        },
      });
    }
  }
  return copies;
}

/** docs/api.md asset-balance rule: the copies' ownerStatus follows every status change of their owner, in its transaction. */
export async function syncOwnerStatus(tx: TenantTx, ownerId: string, status: string): Promise<void> {
  await tx.monitoredAsset.updateMany({
    where: { ownerId, ownerKind: { in: ["Entitlement", "Offer"] } },
    data: { ownerStatus: status },
  });
}

/** Points each metered feature at the owner's copy of its metric. */
export async function linkMeteredAssets(
  db: TenantDbOrTx,
  features: TEntitlementFeature[],
  copies: Map<string, string>,
): Promise<TEntitlementFeature[]> {
  if (!copies.size || !features.length) return features;
  const entries = await liveFeaturesByCode(
    db,
    features.map((f) => f.featureCode),
  );
  return features.map((f) => {
    const metric = entries.get(f.featureCode)?.metricName;
    return metric && copies.has(metric) ? { ...f, meteredAssetId: copies.get(metric)! } : f;
  });
}
