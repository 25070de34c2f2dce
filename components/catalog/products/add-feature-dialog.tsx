"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import {
  ZProductFeatureCreateRequest,
  type TProductFeatureCreateRequest,
  type TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Form, NumberField, SelectField, TextField, useSchemaForm } from "../../ui/form";
import { FeatureFlagFields, defaultFlags, type FeatureFlags } from "./feature-flags";
import { FeatureValueField, featureValueFits } from "./feature-value-field";

type Values = FeatureFlags & {
  featureCatalogId: string;
  value: string;
  name: string;
  moduleName: string;
  description: string;
  sortOrder: number | null;
};

/** Attaches a feature catalog entry (Draft, Preview or Published) with the product's value for it. */
export function AddFeatureDialog({ product, onClose }: { product: TProductResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TProductFeatureCreateRequest>(ZProductFeatureCreateRequest, {
    defaultValues: {
      featureCatalogId: "",
      value: "",
      name: "",
      moduleName: "",
      description: "",
      sortOrder: null,
      ...defaultFlags,
    },
    // Blanks are "the catalog entry's" (name) or "none" (value, module).
    toPayload: (v) => ({
      ...v,
      value: v.value === "" ? null : v.value,
      name: v.name || null,
      moduleName: v.moduleName || null,
    }),
  });
  const featureCatalogId = form.watch("featureCatalogId");
  const { setValue } = form;
  // Another entry's value would not fit the newly chosen one's type.
  useEffect(() => setValue("value", ""), [featureCatalogId, setValue]);

  const catalog = useQuery(
    trpc.featureCatalog.list.queryOptions({
      pageNumber: 1,
      pageSize: 100,
      sortOrder: "featureCode",
      filter: "lifecycleStatus==Draft|Preview|Published",
    }),
  );
  const attached = new Set(product.features.map((f) => f.featureCatalogId));
  const choices = (catalog.data?.items ?? []).filter((e) => !attached.has(e.id));
  const entry = choices.find((e) => e.id === featureCatalogId);

  const add = useMutation(
    trpc.products.addFeature.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        onClose();
      },
      onError: form.showProblem,
    }),
  );

  function submit(feature: TProductFeatureCreateRequest) {
    add.reset();
    if (entry && !featureValueFits(entry, feature.value, form.setError)) return;
    add.mutate({ id: product.id, feature });
  }

  return (
    <Dialog
      open
      wide
      title="Add a feature"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="add-feature" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add feature"}
          </button>
        </>
      }
    >
      <Form form={form} id="add-feature" onSubmit={submit}>
        <SelectField
          name="featureCatalogId"
          label="Catalog entry"
          hint="Disabled and archived entries cannot be attached."
          emptyLabel="Choose a feature…"
          options={choices.map((e) => ({
            value: e.id,
            label: `${e.featureCode} — ${e.name} (${e.featureType})`,
          }))}
        />
        {entry ? (
          <>
            <FeatureValueField
              type={entry}
              hint={`${entry.featureType}${entry.units ? ` in ${entry.units}` : ""}${entry.metricName ? ` · metric ${entry.metricName}` : ""}`}
            />
            <div className="form-grid">
              <TextField name="name" label="Name on this product" hint={`Default: ${entry.name}`} />
              <TextField name="moduleName" label="Module" />
              <NumberField
                name="sortOrder"
                label="Position"
                emptyAs={null}
                max={product.features.length + 1}
                hint="Default last."
              />
            </div>
            <TextField name="description" label="Description" />
            <FeatureFlagFields />
          </>
        ) : null}
      </Form>
    </Dialog>
  );
}
