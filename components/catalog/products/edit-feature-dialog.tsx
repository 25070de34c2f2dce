"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZProductFeatureUpdateRequest,
  featureVisibilities,
  type TProductFeatureResponse,
  type TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { validateFeatureValue } from "@/server/domain/catalog/feature-catalog/feature-value";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";
import { FeatureValueInput } from "../feature-value-input";
import { FeatureFlagsInput, type FeatureFlags } from "./feature-flags";

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
  const [value, setValue] = useState(feature.value ?? "");
  const [name, setName] = useState(feature.name);
  const [moduleName, setModuleName] = useState(feature.moduleName ?? "");
  const [description, setDescription] = useState(feature.description);
  const [visibility, setVisibility] = useState(feature.visibility);
  const [flags, setFlags] = useState<FeatureFlags>({
    isEnabled: feature.isEnabled,
    includeInLicenseToken: feature.includeInLicenseToken,
    isAvailableDuringTrialPeriod: feature.isAvailableDuringTrialPeriod,
    isAvailableDuringGracePeriod: feature.isAvailableDuringGracePeriod,
    isPaidFeature: feature.isPaidFeature,
    canModifyValueOnEntitlement: feature.canModifyValueOnEntitlement,
  });
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const update = useMutation(
    trpc.products.updateFeature.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        onClose();
      },
    }),
  );
  const problem = localProblem ?? problemFrom(update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    update.reset();
    const parsed = ZProductFeatureUpdateRequest.safeParse({
      ...(value === "" ? { clearValue: feature.value !== null } : { value }),
      name,
      description,
      visibility,
      ...flags,
      ...(moduleName ? { moduleName } : { clearModuleName: feature.moduleName !== null }),
      revisionNumber: feature.revisionNumber,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    const invalid = validateFeatureValue(
      { featureType: feature.featureType, enumOptions: feature.enumOptions, metricName: feature.usageMetric },
      value === "" ? null : value,
    );
    if (invalid) return setLocalProblem(validationProblem([{ path: ["value"], message: invalid }]));
    update.mutate({ id: product.id, featureId: feature.id, patch: parsed.data });
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
          <button
            type="submit"
            form="edit-feature-form"
            className="btn btn-primary"
            disabled={update.isPending}
          >
            {update.isPending ? "Saving…" : "Save"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="edit-feature-form" className="form" onSubmit={submit} noValidate>
        <Field
          label="Value"
          htmlFor="edit-feature-value"
          hint={`${feature.featureType}${feature.units ? ` in ${feature.units}` : ""}`}
          error={fieldError(problem, "value")}
        >
          <FeatureValueInput id="edit-feature-value" type={feature} value={value} onChange={setValue} />
        </Field>
        <div className="form-grid">
          <Field label="Name" htmlFor="edit-feature-name" error={fieldError(problem, "name")}>
            <input id="edit-feature-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Module" htmlFor="edit-feature-module" error={fieldError(problem, "moduleName")}>
            <input
              id="edit-feature-module"
              value={moduleName}
              onChange={(e) => setModuleName(e.target.value)}
            />
          </Field>
          <Field label="Visibility" htmlFor="edit-feature-visibility">
            <select
              id="edit-feature-visibility"
              value={visibility}
              onChange={(e) => setVisibility(e.target.value)}
            >
              {featureVisibilities.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field
          label="Description"
          htmlFor="edit-feature-description"
          error={fieldError(problem, "description")}
        >
          <input
            id="edit-feature-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <FeatureFlagsInput flags={flags} onChange={setFlags} />
      </form>
    </Dialog>
  );
}
