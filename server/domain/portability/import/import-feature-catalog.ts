import { createFeatureCatalogEntry } from "../../catalog/feature-catalog/create-feature-catalog-entry.ts";
import { replaceFeatureCatalogEntry } from "../../catalog/feature-catalog/replace-feature-catalog-entry.ts";
import {
  lifecycleMoves,
  ZFeatureCatalogCreateRequest,
  ZFeatureCatalogReplaceRequest,
  type TLifecycleStatus,
} from "../../catalog/feature-catalog/feature-catalog.schemas.ts";
import { deepEqual, fieldDiffers, mergeField } from "./comparison.ts";
import { parseDomainInput } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import type { TPortableFeatureCatalogEntry } from "../snapshot/snapshot-items.schemas.ts";

const lower = (v: unknown) => String(v).toLowerCase();
const optionsMap = (f: TPortableFeatureCatalogEntry) =>
  Object.fromEntries(f.enumOptions.map((o) => [o.value, o.description ?? null]));

/**
 * Created in a status products can still be attached to: a Disabled entry is created Published
 * and an Archived one Draft, and moved after the features are attached.
 */
const initialStatus = (status: string) =>
  status === "Disabled" ? "Published" : status === "Archived" ? "Draft" : status;

const editable = [
  "name",
  "units",
  "metricName",
  "featureType",
  "visibility",
  "meterAggregationType",
  "valueScore",
] as const;

/** The fields the catalog's create and replace both write (options only on an Enumeration). */
const editableInput = (f: TPortableFeatureCatalogEntry, options: unknown, tags: readonly string[]) => ({
  ...Object.fromEntries(editable.map((field) => [field, f[field]])),
  enumOptions: f.featureType === "Enumeration" ? options : null,
  tags,
});

/**
 * Feature catalog entries: matched by featureCode. An update replaces the editable fields through
 * the catalog's PUT rule (a change that would invalidate a product's value is refused there),
 * adds the file's enum options and tags, and moves the lifecycle when that one move is allowed.
 */
export const featureCatalogImporter: SectionImporter<"featureCatalog"> = {
  section: "featureCatalog",
  refKinds: [],
  fields: {
    name: { kind: "value" },
    units: { kind: "value" },
    metricName: { kind: "value" },
    featureType: { kind: "value" },
    visibility: { kind: "value" },
    meterAggregationType: { kind: "value" },
    valueScore: { kind: "value" },
    enumOptions: { kind: "map" },
    tags: { kind: "set", key: lower },
    lifecycleStatus: { kind: "value" },
  },
  comparable: (f) => ({
    name: f.name,
    units: f.units || null,
    metricName: f.metricName,
    featureType: f.featureType,
    visibility: f.visibility,
    meterAggregationType: f.meterAggregationType,
    valueScore: f.valueScore,
    enumOptions: optionsMap(f),
    tags: f.tags,
    lifecycleStatus: f.lifecycleStatus,
  }),

  async create(run, ctx, f) {
    const notes: string[] = [];
    const productId = await run.resolve("Product", f.productId);
    if (f.productId && !productId)
      notes.push(`Created without its product (${run.sourceKeyOf(f.productId)} is not in the target).`);
    const initial = initialStatus(f.lifecycleStatus);
    const entry = await createFeatureCatalogEntry(
      ctx,
      parseDomainInput(ZFeatureCatalogCreateRequest, {
        ...editableInput(f, f.enumOptions, f.tags),
        featureCode: f.featureCode,
        productId,
        lifecycleStatus: initial,
      }),
    );
    return {
      id: entry.id,
      notes,
      after: (item) => {
        if (initial !== f.lifecycleStatus)
          run.deferred.lifecycle.push({ entryId: entry.id, status: f.lifecycleStatus, item });
      },
    };
  },

  async update(_run, ctx, f, { id, current }) {
    const notes: string[] = [];
    const options = mergeField(
      { kind: "list", key: (o) => (o as { value: string }).value },
      current.enumOptions,
      f.enumOptions,
    );
    const tags = mergeField({ kind: "set", key: lower }, current.tags, f.tags) as string[];
    const replace =
      editable.some((field) => !deepEqual(f[field] ?? null, current[field] ?? null)) ||
      !deepEqual(options, current.enumOptions) ||
      fieldDiffers({ kind: "set", key: lower }, current.tags, f.tags);
    if (replace) {
      await replaceFeatureCatalogEntry(
        ctx,
        id,
        parseDomainInput(ZFeatureCatalogReplaceRequest, editableInput(f, options, tags)),
      );
    }
    let moves = false;
    if (f.lifecycleStatus !== current.lifecycleStatus) {
      const from = current.lifecycleStatus as TLifecycleStatus;
      if ((lifecycleMoves[from] ?? []).includes(f.lifecycleStatus as TLifecycleStatus)) moves = true;
      else
        notes.push(
          `lifecycleStatus kept ${from}: ${from} → ${f.lifecycleStatus} is not one allowed move (lifecycle moves go through PUT .../lifecycle).`,
        );
    }
    if (!replace && !moves) return { notes, nothingApplied: true };
    return {
      notes,
      after: (item) => {
        if (moves) _run.deferred.lifecycle.push({ entryId: id, status: f.lifecycleStatus, item });
      },
    };
  },
};
