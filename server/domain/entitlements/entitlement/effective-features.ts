import { z } from "zod";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Entitlement } from "../../../db/generated/client.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { liveFeaturesByCode } from "../../catalog/pricing-lookups.ts";
import { ZUsageTier, type TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import type { TEntitlementFeature } from "./policies.schemas.ts";

export const ZEffectiveFeature = z.object({
  featureCode: z.string(),
  featureName: z.string().nullable(),
  productId: z.string().uuid().nullable(),
  value: z.string().nullable(),
  usageTiers: z.array(ZUsageTier),
  enforcementType: z.string().nullable(),
  metricName: z.string().nullable(),
  isEnabled: z.boolean(),
  includeInLicenseToken: z.boolean(),
  /** Where the value came from, in the order applied: `Product`, `Plan`, `AddOn:<code>`, `Override`. */
  sources: z.array(z.string()),
});
export type TEffectiveFeature = z.infer<typeof ZEffectiveFeature>;

export const ZEffectiveFeaturesResponse = z.object({
  entitlementId: z.string().uuid(),
  planSetId: z.string().uuid().nullable(),
  planName: z.string().nullable(),
  computedAt: z.string(),
  features: z.array(ZEffectiveFeature),
});
export type TEffectiveFeaturesResponse = z.infer<typeof ZEffectiveFeaturesResponse>;

type EntitlementInput = Pick<Entitlement, "id" | "features" | "featureOverrides" | "planSetId" | "planName">;

const addNumbers = (a: string | null, b: string | null) => {
  const sum = Number(a ?? 0) + Number(b ?? 0);
  return Number.isFinite(sum) ? String(sum) : a;
};

/**
 * The one computation of an entitlement's effective features (used by the admin read, the
 * license token and metering), in this order:
 * 1. the features snapshotted from its products (value, flags);
 * 2. the assigned plan's line items: an included line item's feature values replace the value
 *    (and bring tiers, metric and enforcement); a line item with included=false disables that
 *    product's features;
 * 3. add-on grants active at `at` (started, not expired, not revoked), oldest first, each feature
 *    value applied when its planTargets are empty or name the entitlement's plan: `Replace` sets
 *    the value, `Add` adds to the number, `Tiered` replaces the usage tiers;
 * 4. per-entitlement overrides, only for features with canModifyValueOnEntitlement.
 */
export async function computeEffectiveFeatures(
  db: TenantDbOrTx,
  entitlement: EntitlementInput,
  at: Date = now(),
  /** What the caller already knows (activation reads it with its lock): no grants → no grants query. */
  known: { hasGrants?: boolean } = {},
): Promise<TEffectiveFeature[]> {
  const snapshot = (entitlement.features ?? []) as TEntitlementFeature[];
  const byCode = new Map<string, TEffectiveFeature>();
  const entry = (code: string, productId: string | null): TEffectiveFeature => {
    let f = byCode.get(code);
    if (!f) {
      f = {
        featureCode: code,
        featureName: null,
        productId,
        value: null,
        usageTiers: [],
        enforcementType: null,
        metricName: null,
        isEnabled: true,
        includeInLicenseToken: true,
        sources: [],
      };
      byCode.set(code, f);
    }
    return f;
  };
  for (const s of snapshot) {
    const f = entry(s.featureCode, s.productId);
    Object.assign(f, {
      featureName: s.name,
      value: s.value,
      isEnabled: s.isEnabled,
      includeInLicenseToken: s.includeInLicenseToken,
    });
    f.sources.push("Product");
  }

  if (entitlement.planSetId && entitlement.planName) {
    const plan = await db.usagePlan.findFirst({
      where: { planSetId: entitlement.planSetId, name: entitlement.planName },
      include: {
        lineItems: {
          orderBy: { sortOrder: "asc" },
          include: { featureValues: { orderBy: { sortOrder: "asc" } } },
        },
      },
    });
    for (const item of plan?.lineItems ?? []) {
      if (!item.included) {
        for (const s of snapshot.filter((x) => x.productId === item.productId)) {
          const f = entry(s.featureCode, s.productId);
          f.isEnabled = false;
          f.sources.push("Plan");
        }
        continue;
      }
      for (const v of item.featureValues) {
        const f = entry(v.featureCode, item.productId);
        Object.assign(f, {
          value: v.value,
          usageTiers: v.usageTiers as TUsageTier[],
          enforcementType: v.enforcementType,
          metricName: v.metricName ?? f.metricName,
        });
        f.sources.push("Plan");
      }
    }
  }

  const grants =
    known.hasGrants === false
      ? []
      : await db.addOnGrant.findMany({
          where: {
            entitlementId: entitlement.id,
            isRevoked: false,
            startsAt: { lte: at },
            OR: [{ expiresAt: null }, { expiresAt: { gt: at } }],
          },
          include: { addOn: { include: { featureValues: { orderBy: { sortOrder: "asc" } } } } },
          orderBy: [{ startsAt: "asc" }, { createdAt: "asc" }],
        });
  for (const grant of grants) {
    for (const v of grant.addOn.featureValues) {
      if (v.planTargets.length && !v.planTargets.includes(entitlement.planName ?? "")) continue;
      const f = entry(v.featureCode, null);
      if (v.operation === "Replace") f.value = v.value;
      else if (v.operation === "Add") f.value = addNumbers(f.value, v.value);
      else if (v.operation === "Tiered") f.usageTiers = v.usageTiers as TUsageTier[];
      f.sources.push(`AddOn:${grant.addOn.code}`);
    }
  }

  const overrides = (entitlement.featureOverrides ?? {}) as Record<string, string>;
  for (const [code, value] of Object.entries(overrides)) {
    if (!snapshot.some((s) => s.featureCode === code && s.canModifyValueOnEntitlement)) continue;
    const f = entry(code, null);
    f.value = value;
    f.sources.push("Override");
  }

  const names = await liveFeaturesByCode(db, [...byCode.keys()]);
  for (const f of byCode.values()) {
    const catalog = names.get(f.featureCode);
    f.featureName ??= catalog?.name ?? null;
    f.metricName ??= catalog?.metricName ?? null;
  }
  return [...byCode.values()];
}

/** GET /admin/entitlements/{id}/effective-features. */
export async function getEffectiveFeatures(
  ctx: { db: TenantDbOrTx },
  id: string,
): Promise<TEffectiveFeaturesResponse> {
  const entitlement = await ctx.db.entitlement.findUnique({ where: { id } });
  if (!entitlement) throw notFound("Entitlement");
  const at = now();
  return {
    entitlementId: id,
    planSetId: entitlement.planSetId,
    planName: entitlement.planName,
    computedAt: at.toISOString(),
    features: await computeEffectiveFeatures(ctx.db, entitlement, at),
  };
}
