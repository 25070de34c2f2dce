"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import {
  ZFeatureCatalogCreateRequest,
  ZFeatureCatalogReplaceRequest,
  type TFeatureCatalogCreateRequest,
  type TFeatureCatalogReplaceRequest,
  type TFeatureCatalogResponse,
} from "@/server/domain/catalog/feature-catalog/feature-catalog.schemas";
import { featureTypes } from "@/server/domain/catalog/feature-catalog/feature-value";
import { metricTypes } from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { featureVisibilities } from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Form, NumberField, SelectField, TextField, useSchemaForm } from "../../ui/form";
import { EnumOptionsEditor, type EnumOptionRow } from "./enum-options-editor";

const typeHints: Record<string, string> = {
  Boolean: "Values are true or false.",
  Numeric: "Values are numbers.",
  Text: "Values are free text.",
  Enumeration: "Values are one of the options below.",
  Metered: "Values are quotas of the metric the application reports.",
  JsonField: "Values are JSON documents.",
};

type Values = {
  featureCode: string;
  name: string;
  featureType: string;
  units: string;
  metricName: string;
  visibility: string;
  meterAggregationType: string;
  valueScore: number | null;
  enumOptions: EnumOptionRow[];
  /** Comma-separated. */
  tags: string;
};
type Payload = TFeatureCatalogCreateRequest | TFeatureCatalogReplaceRequest;

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** The request of the dialog's values: blanks are nulls, options only for an Enumeration. */
function payloadOf(v: Values, entry?: TFeatureCatalogResponse) {
  const fields = {
    name: v.name,
    featureType: v.featureType,
    units: v.units.trim() || null,
    metricName: v.metricName.trim() || null,
    visibility: v.visibility,
    meterAggregationType: v.meterAggregationType || null,
    valueScore: v.valueScore,
    enumOptions:
      v.featureType === "Enumeration"
        ? v.enumOptions.map((o) => ({ value: o.value, description: o.description.trim() || null }))
        : null,
    tags: v.tags
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  };
  return entry
    ? { ...fields, revisionNumber: entry.revisionNumber }
    : { ...fields, featureCode: v.featureCode };
}

/** Creates a catalog entry, or replaces an entry's editable fields (not its code or lifecycle). */
export function FeatureFormDialog({
  entry,
  onClose,
}: {
  entry?: TFeatureCatalogResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, Payload>(
    (entry ? ZFeatureCatalogReplaceRequest : ZFeatureCatalogCreateRequest) as z.ZodType<Payload>,
    {
      defaultValues: {
        featureCode: "",
        name: entry?.name ?? "",
        featureType: entry?.featureType ?? "Boolean",
        units: entry?.units ?? "",
        metricName: entry?.metricName ?? "",
        visibility: entry?.visibility ?? "Public",
        meterAggregationType: entry?.meterAggregationType ?? "",
        valueScore: entry?.valueScore ?? null,
        enumOptions: (entry?.enumOptions ?? []).map((o) => ({
          value: o.value,
          description: o.description ?? "",
        })),
        tags: entry?.tags.join(", ") ?? "",
      },
      toPayload: (v) => payloadOf(v, entry),
    },
  );
  const featureType = form.watch("featureType");
  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.featureCatalog.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    onClose();
  };
  const create = useMutation(
    trpc.featureCatalog.create.mutationOptions({ onSuccess, onError: form.showProblem }),
  );
  const replace = useMutation(
    trpc.featureCatalog.replace.mutationOptions({ onSuccess, onError: form.showProblem }),
  );
  const mutation = entry ? replace : create;

  function submit(payload: Payload) {
    mutation.reset();
    if (entry) replace.mutate({ id: entry.id, entry: payload as TFeatureCatalogReplaceRequest });
    else create.mutate(payload as TFeatureCatalogCreateRequest);
  }

  return (
    <Dialog
      open
      wide
      title={entry ? `Edit ${entry.featureCode}` : "New feature"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="feature" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : entry ? "Save" : "Create feature"}
          </button>
        </>
      }
    >
      <Form form={form} id="feature" onSubmit={submit}>
        <div className="form-grid">
          {entry ? null : (
            <TextField
              name="featureCode"
              label="Feature code"
              mono
              autoFocus
              hint="Stored uppercase; changed later with “Change code”."
            />
          )}
          <TextField name="name" label="Name" />
          <SelectField
            name="featureType"
            label="Type"
            hint={typeHints[featureType]}
            options={options(featureTypes)}
          />
          <TextField name="units" label="Units" placeholder="seats, GB…" />
          <TextField
            name="metricName"
            label={featureType === "Metered" ? "Metric name (required)" : "Metric name"}
            mono
            hint="Lowercase, as the application reports it."
          />
          <SelectField name="visibility" label="Visibility" options={options(featureVisibilities)} />
          <SelectField
            name="meterAggregationType"
            label="Meter aggregation"
            emptyLabel="(none)"
            options={options(metricTypes)}
          />
          <NumberField
            name="valueScore"
            label="Value score"
            emptyAs={null}
            hint="Blank: not valued (counts nothing)."
          />
          {/* No counter: the box holds a list, and the schema's limits are per tag. */}
          <TextField name="tags" label="Tags" hint="Comma-separated (FeatureCatalog tags)." schemaPath="-" />
        </div>
        {featureType === "Enumeration" ? <EnumOptionsEditor name="enumOptions" /> : null}
      </Form>
    </Dialog>
  );
}
