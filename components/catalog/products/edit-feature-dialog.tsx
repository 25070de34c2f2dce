"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ZProductFeatureUpdateRequest,
  featureVisibilities,
  type TProductFeatureResponse,
  type TProductFeatureUpdateRequest,
  type TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Form, SelectField, TextField, useSchemaForm } from "../../ui/form";
import { FeatureFlagFields, flagsOf, type FeatureFlags } from "./feature-flags";
import { FeatureValueField, featureValueFits } from "./feature-value-field";

type Values = FeatureFlags & {
  value: string;
  name: string;
  moduleName: string;
  description: string;
  visibility: string;
};

/** Edits a product feature: value (type-aware), name, module, description, flags, visibility. */
export function EditFeatureDialog({
  product,
  feature,
  onClose,
}: {
  product: TProductResponse;
  feature: TProductFeatureResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TProductFeatureUpdateRequest>(ZProductFeatureUpdateRequest, {
    defaultValues: {
      value: feature.value ?? "",
      name: feature.name,
      moduleName: feature.moduleName ?? "",
      description: feature.description,
      visibility: feature.visibility,
      ...flagsOf(feature),
    },
    // Blanks clear what the feature had (merge-PATCH).
    toPayload: ({ value, moduleName, ...rest }) => ({
      ...rest,
      ...(value === "" ? { clearValue: feature.value !== null } : { value }),
      ...(moduleName ? { moduleName } : { clearModuleName: feature.moduleName !== null }),
      revisionNumber: feature.revisionNumber,
    }),
  });
  const update = useMutation(
    trpc.products.updateFeature.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        onClose();
      },
      onError: form.showProblem,
    }),
  );

  function submit(patch: TProductFeatureUpdateRequest) {
    update.reset();
    const entry = {
      featureType: feature.featureType,
      enumOptions: feature.enumOptions,
      metricName: feature.usageMetric,
    };
    if (!featureValueFits(entry, patch.value ?? null, form.setError)) return;
    update.mutate({ id: product.id, featureId: feature.id, patch });
  }

  return (
    <Dialog
      open
      wide
      title={`Edit ${feature.featureCode}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="edit-feature" className="btn btn-primary" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save"}
          </button>
        </>
      }
    >
      <Form form={form} id="edit-feature" onSubmit={submit}>
        <FeatureValueField
          type={feature}
          hint={`${feature.featureType}${feature.units ? ` in ${feature.units}` : ""}`}
        />
        <div className="form-grid">
          <TextField name="name" label="Name" />
          <TextField name="moduleName" label="Module" />
          <SelectField
            name="visibility"
            label="Visibility"
            options={featureVisibilities.map((v) => ({ value: v, label: v }))}
          />
        </div>
        <TextField name="description" label="Description" />
        <FeatureFlagFields />
      </Form>
    </Dialog>
  );
}
