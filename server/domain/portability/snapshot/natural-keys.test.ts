import { describe, expect, it } from "vitest";
import { businessKey, matchKey, parseProductKey } from "./natural-keys.ts";
import { itemNaturalKeys } from "./item-natural-keys.ts";
import { ZPortableMonitoredAsset, ZPortablePlanSet } from "./snapshot-items.schemas.ts";

const id = () => crypto.randomUUID();

describe("natural and business keys", () => {
  it("business keys are code@version for products (code alone without a version), code for add-ons, name for plan sets", () => {
    expect(businessKey("Product", { productCode: "STUDIO", productVersion: "2.1" })).toBe("STUDIO@2.1");
    expect(businessKey("Product", { productCode: "STUDIO", productVersion: "" })).toBe("STUDIO");
    expect(businessKey("AddOn", { code: "POWER-PACK" })).toBe("POWER-PACK");
    expect(businessKey("PlanSet", { code: "SUITE", name: "2027 plans", version: "3" })).toBe("2027 plans");
    expect(businessKey("RatingCampaign", { name: "Spring" })).toBe("Spring");
    expect(businessKey("Tag", { scope: "Product", name: "Desktop" })).toBe("Product:Desktop");
    expect(
      businessKey("MonitoredAsset", { productCode: "S", productVersion: "1", metricName: "api-calls" }),
    ).toBe("S@1/api-calls");
  });

  it("a product business key parses back into code and version", () => {
    expect(parseProductKey("STUDIO@2.1")).toEqual({ productCode: "STUDIO", productVersion: "2.1" });
    expect(parseProductKey("STUDIO")).toEqual({ productCode: "STUDIO", productVersion: "" });
  });

  it("matching follows each kind's uniqueness rule: product codes and tag names ignore case, metric names do not", () => {
    expect(matchKey("Product", { productCode: "Studio", productVersion: "2.1" })).toBe(
      matchKey("Product", { productCode: "STUDIO", productVersion: "2.1" }),
    );
    expect(matchKey("Product", { productCode: "STUDIO", productVersion: "2.1" })).not.toBe(
      matchKey("Product", { productCode: "STUDIO", productVersion: "2.10" }),
    );
    expect(matchKey("Tag", { scope: "Product", name: "Beta" })).toBe(
      matchKey("Tag", { scope: "Product", name: "beta" }),
    );
    expect(matchKey("Tag", { scope: "Product", name: "Beta" })).not.toBe(
      matchKey("Tag", { scope: "Offer", name: "Beta" }),
    );
    expect(matchKey("FeatureCatalogEntry", { featureCode: "seats" })).toBe("SEATS");
  });

  it("an item's key includes the key the file gives the record it belongs to (an asset's product, a plan set's suite)", () => {
    const productId = id();
    const suiteId = id();
    const keys = new Map([
      [productId, { productCode: "STUDIO", productVersion: "2.1" }],
      [suiteId, { code: "STUDIO-SUITE" }],
    ]);
    const keyOf = (k: string | null | undefined) => (k ? (keys.get(k) ?? null) : null);
    const asset = ZPortableMonitoredAsset.parse({
      id: id(),
      productId,
      metricName: "api-calls",
      name: "API calls",
    });
    expect(itemNaturalKeys.monitoredAssets(asset, keyOf)).toEqual({
      productCode: "STUDIO",
      productVersion: "2.1",
      metricName: "api-calls",
    });
    const planSet = ZPortablePlanSet.parse({ id: id(), suiteId, name: "2027 plans", revision: 2 });
    expect(itemNaturalKeys.plans(planSet, keyOf)).toEqual({
      code: "STUDIO-SUITE",
      name: "2027 plans",
      version: "2",
    });
  });
});
