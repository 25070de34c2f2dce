"use client";

import { useQueries } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import type { FeatureOption } from "./feature-value-row";

/**
 * The features each suite member carries, read from its product: a plan's line item may only set
 * values for the features its product has (the catalog's other entries mean nothing there).
 * `undefined` for a product still loading.
 */
export function useMemberFeatures(productIds: readonly string[]): Map<string, FeatureOption[] | undefined> {
  const trpc = useTRPC();
  const results = useQueries({
    queries: productIds.map((id) => ({ ...trpc.products.get.queryOptions({ id }), staleTime: 60_000 })),
  });
  const byProduct = new Map<string, FeatureOption[] | undefined>();
  productIds.forEach((id, i) => {
    const product = results[i]?.data;
    byProduct.set(
      id,
      product?.features.map((f) => ({
        id: f.id,
        featureCode: f.featureCode,
        name: f.name,
        units: f.units,
        metricName: f.usageMetric,
        featureType: f.featureType,
        enumOptions: f.enumOptions.map((o) => o.value),
      })),
    );
  });
  return byProduct;
}
