import { describe, expect, it } from "vitest";
import {
  ZMonitoredAssetCreateRequest,
  ZMonitoredAssetUpdateRequest,
  type TMonitoredAssetResponse,
} from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import {
  assetValues,
  createPayload,
  updatePayload,
} from "@/components/catalog/monitored-assets/asset-form-values";

const tier = {
  name: "Included",
  startUsage: 0,
  endUsage: 1000,
  startPercentage: 0,
  endPercentage: 0,
  baseCredits: 0,
  creditsPerUnitOfConsumption: 0,
  quotaUsageLevel: "None",
  quotaUsagePolicy: "None",
  fundingBalanceMetric: "",
};

/** A saved metered asset, as the API answers it (the fields the editor reads). */
const meteredAsset = {
  id: "8a4f0c57-2d8e-4b8a-9d37-0a5f3c1e2b10",
  metricName: "api_calls",
  name: "API calls",
  description: "",
  unit: "calls",
  category: "",
  numberFormat: "",
  tags: ["core", "api"],
  metricType: "CumulativeCounter",
  allowedBackDatingTolerance: "P7D",
  revisionNumber: 3,
  meteredUsage: {
    consumptionPeriod: "month",
    periodAnchor: "Calendar",
    accumulationMethod: "Sliced",
    usageTiers: [tier],
  },
  balanceUsage: null,
} as unknown as TMonitoredAssetResponse;

describe("asset editor values", () => {
  it("a new asset starts tracked only, monthly when metered, with no tiers", () => {
    const v = assetValues();
    expect(v.kind).toBe("None");
    expect(v.meteredUsage).toEqual({
      consumptionPeriod: "month",
      periodAnchor: "Calendar",
      accumulationMethod: "Sliced",
      usageTiers: [],
    });
    expect(v.balanceUsage.initialCreditAmount).toBe(0);
    expect(createPayload(v)).toEqual({
      metricName: "",
      name: "",
      description: "",
      unit: "",
      category: "",
      numberFormat: "",
      metricType: "CumulativeCounter",
      tags: [],
      allowedBackDatingTolerance: null,
      meteredUsage: null,
      balanceUsage: null,
    });
  });

  it("creates a credit balance: blanks become the schema's nulls, a blank band threshold is refused", () => {
    const v = assetValues();
    v.metricName = "render_credits";
    v.name = "Render credits";
    v.tags = " a, ,b ";
    v.kind = "Balance";
    v.balanceUsage = {
      ...v.balanceUsage,
      name: "Credits",
      initialCreditAmount: null,
      autoBalanceCronSchedule: "  ",
      usageQuota: [{ endUsage: "10", name: "Low", quotaUsageLevel: "Low" }],
    };
    const payload = createPayload(v);
    expect(payload.tags).toEqual(["a", "b"]);
    expect(payload.balanceUsage).toMatchObject({
      name: "Credits",
      initialCreditAmount: 0,
      autoBalanceCronSchedule: null,
      maxAutoBalanceCreditTransferAmount: null,
      autoBalanceCreditAmount: null,
      usageQuota: [{ endUsage: 10, name: "Low", quotaUsageLevel: "Low" }],
    });
    expect(ZMonitoredAssetCreateRequest.safeParse(payload).success).toBe(true);

    v.balanceUsage.usageQuota = [{ endUsage: "", name: "Low", quotaUsageLevel: "Low" }];
    const refused = ZMonitoredAssetCreateRequest.safeParse(createPayload(v));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].path).toEqual(["balanceUsage", "usageQuota", 0, "endUsage"]);
  });

  it("edits a metered asset: its tiers round-trip, a cleared tolerance is cleared", () => {
    const v = assetValues(meteredAsset);
    expect(v.kind).toBe("Metered");
    expect(v.tags).toBe("core, api");
    expect(v.meteredUsage.usageTiers[0]).toMatchObject({
      name: "Included",
      startUsage: "0",
      endUsage: "1000",
    });
    v.allowedBackDatingTolerance = "";
    const patch = updatePayload(v, meteredAsset);
    expect(patch).toMatchObject({
      clearAllowedBackDatingTolerance: true,
      meteredUsage: { consumptionPeriod: "month", usageTiers: [tier] },
      revisionNumber: 3,
    });
    expect(patch).not.toHaveProperty("clearMeteredUsage");
    expect(ZMonitoredAssetUpdateRequest.safeParse(patch).success).toBe(true);
  });

  it("switching a metered asset to tracked only detaches its metered usage", () => {
    const v = assetValues(meteredAsset);
    v.kind = "None";
    const patch = updatePayload(v, meteredAsset);
    expect(patch).toMatchObject({ clearMeteredUsage: true, allowedBackDatingTolerance: "P7D" });
    expect(patch).not.toHaveProperty("meteredUsage");
    expect(patch).not.toHaveProperty("balanceUsage");
  });

  it("a balance's blank auto-balance fields become clear flags on update", () => {
    const v = assetValues(meteredAsset);
    v.kind = "Balance";
    v.balanceUsage.name = "Credits";
    const patch = updatePayload(v, meteredAsset) as { balanceUsage: Record<string, unknown> };
    expect(patch.balanceUsage).toMatchObject({
      clearAutoBalanceCronSchedule: true,
      clearMaxAutoBalanceCreditTransferAmount: true,
      clearAutoBalanceCreditAmount: true,
      autoBalanceCronSchedule: undefined,
    });
  });
});
