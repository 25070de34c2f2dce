import { createMonitoredAsset } from "../../catalog/monitored-assets/create-monitored-asset.ts";
import {
  consumptionPeriods,
  ZMonitoredAssetCreateRequest,
} from "../../catalog/monitored-assets/monitored-asset.schemas.ts";
import { ItemRefusal, parseDomainInput } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import type { ParsedItem } from "../snapshot/snapshot-file.ts";
import type { TPortableMonitoredAsset } from "../snapshot/snapshot-items.schemas.ts";

/** An asset's own fields: what creating it writes and what a match is compared on. */
const assetFields = (a: TPortableMonitoredAsset) => ({
  metricName: a.metricName,
  name: a.name,
  description: a.description,
  unit: a.unit,
  category: a.category,
  numberFormat: a.numberFormat,
  metricType: a.metricType,
  tags: a.tags,
  allowedBackDatingTolerance: a.allowedBackDatingTolerance,
  meteredUsage: a.meteredUsage,
  balanceUsage: a.balanceUsage,
});

/**
 * docs/api.md: a blank or unrecognised consumptionPeriod is a lifetime allowance. Writes through the
 * API refuse an unknown unit (a typo would silently make a monthly quota lifetime), but a file
 * may come from a service that knows more units: its asset is imported as the lifetime allowance
 * this service reads it as (blank), with a note, rather than refused, which would leave the
 * product without the metric (docs/decisions.md "Refusals that name the rule").
 */
function withKnownPeriod(fields: ReturnType<typeof assetFields>) {
  const period = fields.meteredUsage?.consumptionPeriod ?? "";
  if (!fields.meteredUsage || (consumptionPeriods as readonly string[]).includes(period))
    return { fields, notes: [] };
  return {
    fields: { ...fields, meteredUsage: { ...fields.meteredUsage, consumptionPeriod: "" } },
    notes: [
      `consumptionPeriod "${period}" is not a unit this service knows: imported as a lifetime allowance (blank).`,
    ],
  };
}

/** Balances first, then plain metrics, then metered ones (whose tiers may charge a balance). */
const rank = (i: ParsedItem<"monitoredAssets">) => (i.item?.balanceUsage ? 0 : i.item?.meteredUsage ? 2 : 1);

/**
 * Monitored assets of products: matched by product and metricName. docs/api.md: an existing product's
 * monitored assets are not overwritten, so a match is always kept as it is; a metric the product
 * lacks is created through createMonitoredAsset (its tier and balance rules apply).
 */
export const monitoredAssetsImporter: SectionImporter<"monitoredAssets"> = {
  section: "monitoredAssets",
  refKinds: ["Product"],
  fields: {
    name: { kind: "value" },
    description: { kind: "value" },
    unit: { kind: "value" },
    category: { kind: "value" },
    numberFormat: { kind: "value" },
    metricType: { kind: "value" },
    tags: { kind: "set", key: (v) => String(v).toLowerCase() },
    allowedBackDatingTolerance: { kind: "value" },
    meteredUsage: { kind: "value" },
    balanceUsage: { kind: "value" },
  },
  comparable: (a) => {
    const { metricName: _key, ...fields } = assetFields(a);
    return fields;
  },
  order: (items) =>
    items
      .map((item, i) => ({ item, i }))
      .sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i)
      .map((e) => e.item),

  keepsMatch: () => "An existing product's monitored assets are not overwritten.",

  async create(run, ctx, a) {
    const productId = await run.resolve("Product", a.productId);
    if (!productId)
      throw new ItemRefusal(`Its product ${run.sourceKeyOf(a.productId)} is not in the target.`);
    const { fields, notes } = withKnownPeriod(assetFields(a));
    const asset = await createMonitoredAsset(
      ctx,
      productId,
      parseDomainInput(ZMonitoredAssetCreateRequest, fields),
    );
    return { id: asset.id, notes };
  },

  async update() {
    throw new ItemRefusal("An existing product's monitored assets are not overwritten.");
  },
};
