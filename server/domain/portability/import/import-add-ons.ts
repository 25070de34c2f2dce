import { createAddOn } from "../../pricing/add-ons/create-add-on.ts";
import { updateAddOn } from "../../pricing/add-ons/update-add-on.ts";
import { archiveAddOn } from "../../pricing/add-ons/archive-add-on.ts";
import { ZAddOnCreateRequest, ZAddOnUpdateRequest } from "../../pricing/add-ons/add-on.schemas.ts";
import { deepEqual, mergeField } from "./comparison.ts";
import { ItemRefusal, parseDomainInput, type ImportRun } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import { addOnGrantedIds, type TPortableAddOn } from "../snapshot/snapshot-items.schemas.ts";

type FeatureValue = TPortableAddOn["featureValues"][number];
/** A value is identified by its feature and the plans it targets. */
const valueKey = (v: unknown) => {
  const fv = v as FeatureValue;
  return `${fv.featureCode.toUpperCase()}|${[...fv.planTargets]
    .map((t) => t.toLowerCase())
    .sort()
    .join(",")}`;
};
const byValue = { kind: "list" as const, key: valueKey };

async function grantedEntries(run: ImportRun, a: TPortableAddOn, notes: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const sourceId of addOnGrantedIds(a)) {
    const id = await run.resolve("FeatureCatalogEntry", sourceId);
    if (id) ids.push(id);
    else
      notes.push(`Feature ${run.sourceKeyOf(sourceId)} not granted: its catalog entry is not in the target.`);
  }
  return ids;
}

/**
 * Add-ons: matched by code. Created in their suite as a Draft through createAddOn (archived after
 * when the file says Archived); an update merges the granted features and feature values through
 * updateAddOn, whose rules refuse an archived add-on or a move to another suite.
 */
export const addOnsImporter: SectionImporter<"addOns"> = {
  section: "addOns",
  refKinds: ["FeatureCatalogEntry", "Suite"],
  fields: {
    name: { kind: "value" },
    description: { kind: "value" },
    status: { kind: "value" },
    suite: { kind: "value" },
    features: { kind: "set" },
    featureValues: byValue,
  },
  comparable: (a, keyOf) => ({
    name: a.name,
    description: a.description,
    status: a.status,
    suite: keyOf(a.suiteId),
    features: addOnGrantedIds(a).map((id) => keyOf(id)),
    featureValues: a.featureValues.map((v) => ({ ...v, featureCode: v.featureCode.toUpperCase() })),
  }),

  async create(run, ctx, a) {
    const notes: string[] = [];
    const suiteId = await run.resolve("Suite", a.suiteId);
    if (!suiteId) throw new ItemRefusal(`Its suite ${run.sourceKeyOf(a.suiteId)} is not in the target.`);
    const addOn = await createAddOn(
      ctx,
      parseDomainInput(ZAddOnCreateRequest, {
        suiteId,
        code: a.code,
        name: a.name,
        description: a.description,
        featureCatalogIds: await grantedEntries(run, a, notes),
        featureValues: a.featureValues,
      }),
    );
    if (a.status === "Archived") await archiveAddOn(ctx, addOn.id);
    return { id: addOn.id, notes };
  },

  async update(run, ctx, a, { id, current }) {
    const notes: string[] = [];
    const suiteId = await run.resolve("Suite", a.suiteId);
    const features = mergeField(
      { kind: "set" },
      addOnGrantedIds(current),
      await grantedEntries(run, a, notes),
    ) as string[];
    const values = mergeField(byValue, current.featureValues, a.featureValues) as FeatureValue[];
    const changes =
      a.name !== current.name ||
      a.description !== current.description ||
      (suiteId !== null && suiteId !== current.suiteId) ||
      features.length !== addOnGrantedIds(current).length ||
      !deepEqual(values, current.featureValues);
    // An archived add-on is read-only: the update is made so that its own rule refuses it.
    if (changes || current.status === "Archived") {
      await updateAddOn(
        ctx,
        id,
        parseDomainInput(ZAddOnUpdateRequest, {
          suiteId,
          code: current.code,
          name: a.name,
          description: a.description,
          featureCatalogIds: features,
          featureValues: values,
        }),
      );
    }
    if (a.status === "Archived" && current.status !== "Archived") await archiveAddOn(ctx, id);
    return { notes };
  },
};
