import type { ImportRun } from "./import-run.ts";
import type { SectionName } from "../snapshot/sections.ts";
import type { PortableItems } from "../snapshot/snapshot-items.schemas.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";

const funding = (tiers: readonly TUsageTier[]) =>
  tiers.map((t) => t.fundingBalanceMetric).filter((m): m is string => !!m);

/** Metric names an item of a section relies on a monitored asset for. */
const carriedMetrics: Partial<{ [S in SectionName]: (item: PortableItems[S]) => string[] }> = {
  featureCatalog: (f) => (f.metricName ? [f.metricName] : []),
  plans: (p) =>
    p.plans.flatMap((plan) =>
      plan.lineItems.flatMap((li) =>
        li.featureValues.flatMap((fv) => [
          ...(fv.metricName ? [fv.metricName] : []),
          ...funding(fv.usageTiers),
        ]),
      ),
    ),
  addOns: (a) => a.featureValues.flatMap((v) => funding(v.usageTiers)),
  monitoredAssets: (a) => (a.meteredUsage ? funding(a.meteredUsage.usageTiers) : []),
};

/**
 * docs/api.md `unusableMetricNames`: per section, the metric names that items carried into the target
 * (created, updated, or already there) rely on but no product's monitored asset in the target has
 * once the import is done; in the monitoredAssets section also the metrics whose asset could not
 * be created.
 */
export async function fillUnusableMetricNames(run: ImportRun): Promise<void> {
  const rows = await run.db.monitoredAsset.findMany({
    where: { ownerKind: "Product", product: { isDeleted: false } },
    select: { metricName: true },
    distinct: ["metricName"],
  });
  const available = new Set(rows.map((r) => r.metricName));
  for (const [section, outcomes] of run.outcomes) {
    const unusable = new Set<string>();
    const metricsOf = carriedMetrics[section] as ((item: unknown) => string[]) | undefined;
    for (const { item, result, matched } of outcomes) {
      if (!item) continue;
      const carried = matched || result.action === "Created" || result.action === "Updated";
      if (section === "monitoredAssets" && !carried)
        unusable.add((item as PortableItems["monitoredAssets"]).metricName);
      if (!carried || !metricsOf) continue;
      for (const metric of metricsOf(item)) if (!available.has(metric)) unusable.add(metric);
    }
    run.section(section).unusableMetricNames = [...unusable].sort();
  }
}
