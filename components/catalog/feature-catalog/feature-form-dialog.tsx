"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZFeatureCatalogCreateRequest,
  ZFeatureCatalogReplaceRequest,
  type TFeatureCatalogResponse,
} from "@/server/domain/catalog/feature-catalog/feature-catalog.schemas";
import { featureTypes } from "@/server/domain/catalog/feature-catalog/feature-value";
import { metricTypes } from "@/server/domain/catalog/monitored-assets/monitored-asset.schemas";
import { featureVisibilities } from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";

const typeHints: Record<string, string> = {
  Boolean: "Values are true or false.",
  Numeric: "Values are numbers.",
  Text: "Values are free text.",
  Enumeration: "Values are one of the options below.",
  Metered: "Values are quotas of the metric the application reports.",
  JsonField: "Values are JSON documents.",
};

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
  const [featureCode, setFeatureCode] = useState("");
  const [name, setName] = useState(entry?.name ?? "");
  const [featureType, setFeatureType] = useState(entry?.featureType ?? "Boolean");
  const [units, setUnits] = useState(entry?.units ?? "");
  const [metricName, setMetricName] = useState(entry?.metricName ?? "");
  const [visibility, setVisibility] = useState(entry?.visibility ?? "Public");
  const [meterAggregationType, setMeterAggregationType] = useState(entry?.meterAggregationType ?? "");
  const [valueScore, setValueScore] = useState(entry?.valueScore == null ? "" : String(entry.valueScore));
  const [options, setOptions] = useState(
    (entry?.enumOptions ?? []).map((o) => ({ value: o.value, description: o.description ?? "" })),
  );
  const [tags, setTags] = useState(entry?.tags.join(", ") ?? "");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);

  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.featureCatalog.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    onClose();
  };
  const create = useMutation(trpc.featureCatalog.create.mutationOptions({ onSuccess }));
  const replace = useMutation(trpc.featureCatalog.replace.mutationOptions({ onSuccess }));
  const mutation = entry ? replace : create;
  const problem = localProblem ?? problemFrom(mutation.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    mutation.reset();
    const fields = {
      name,
      featureType,
      units: units.trim() || null,
      metricName: metricName.trim() || null,
      visibility,
      meterAggregationType: meterAggregationType || null,
      valueScore: valueScore.trim() === "" ? null : Number(valueScore),
      enumOptions:
        featureType === "Enumeration"
          ? options.map((o) => ({ value: o.value, description: o.description.trim() || null }))
          : null,
      tags: tags
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    };
    if (!entry) {
      const parsed = ZFeatureCatalogCreateRequest.safeParse({ ...fields, featureCode });
      if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
      create.mutate(parsed.data);
      return;
    }
    const parsed = ZFeatureCatalogReplaceRequest.safeParse({
      ...fields,
      revisionNumber: entry.revisionNumber,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    replace.mutate({ id: entry.id, entry: parsed.data });
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
          <button type="submit" form="feature-form" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : entry ? "Save" : "Create feature"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="feature-form" className="form" onSubmit={submit} noValidate>
        <div className="form-grid">
          {entry ? null : (
            <Field
              label="Feature code"
              htmlFor="feature-code"
              hint="Stored uppercase; changed later with “Change code”."
              error={fieldError(problem, "featureCode")}
            >
              <input
                id="feature-code"
                className="mono"
                value={featureCode}
                onChange={(e) => setFeatureCode(e.target.value)}
                autoFocus
              />
            </Field>
          )}
          <Field label="Name" htmlFor="feature-name" error={fieldError(problem, "name")}>
            <input id="feature-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field
            label="Type"
            htmlFor="feature-type"
            hint={typeHints[featureType]}
            error={fieldError(problem, "featureType")}
          >
            <select id="feature-type" value={featureType} onChange={(e) => setFeatureType(e.target.value)}>
              {featureTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Units" htmlFor="feature-units" error={fieldError(problem, "units")}>
            <input
              id="feature-units"
              value={units}
              onChange={(e) => setUnits(e.target.value)}
              placeholder="seats, GB…"
            />
          </Field>
          <Field
            label={featureType === "Metered" ? "Metric name (required)" : "Metric name"}
            htmlFor="feature-metric"
            hint="Lowercase, as the application reports it."
            error={fieldError(problem, "metricName")}
          >
            <input
              id="feature-metric"
              className="mono"
              value={metricName}
              onChange={(e) => setMetricName(e.target.value)}
            />
          </Field>
          <Field label="Visibility" htmlFor="feature-visibility">
            <select
              id="feature-visibility"
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
          <Field label="Meter aggregation" htmlFor="feature-aggregation">
            <select
              id="feature-aggregation"
              value={meterAggregationType}
              onChange={(e) => setMeterAggregationType(e.target.value)}
            >
              <option value="">(none)</option>
              {metricTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Value score"
            htmlFor="feature-score"
            hint="Blank: not valued (counts nothing)."
            error={fieldError(problem, "valueScore")}
          >
            <input
              id="feature-score"
              inputMode="decimal"
              value={valueScore}
              onChange={(e) => setValueScore(e.target.value)}
            />
          </Field>
          <Field label="Tags" htmlFor="feature-tags" hint="Comma-separated (FeatureCatalog tags).">
            <input id="feature-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
          </Field>
        </div>
        {featureType === "Enumeration" ? (
          <fieldset className="form-section">
            <legend>Options</legend>
            {fieldError(problem, "enumOptions") ? (
              <div className="field-error">{fieldError(problem, "enumOptions")}</div>
            ) : null}
            <table className="grid-editor" aria-label="Enumeration options">
              <thead>
                <tr>
                  <th>Value</th>
                  <th>Description</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {options.map((o, i) => (
                  <tr key={i}>
                    <td>
                      <input
                        aria-label={`Option ${i + 1} value`}
                        value={o.value}
                        onChange={(e) =>
                          setOptions(options.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
                        }
                      />
                    </td>
                    <td>
                      <input
                        aria-label={`Option ${i + 1} description`}
                        value={o.description}
                        onChange={(e) =>
                          setOptions(
                            options.map((x, j) => (j === i ? { ...x, description: e.target.value } : x)),
                          )
                        }
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-small btn-ghost"
                        aria-label={`Remove option ${i + 1}`}
                        onClick={() => setOptions(options.filter((_, j) => j !== i))}
                      >
                        ×
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => setOptions([...options, { value: "", description: "" }])}
            >
              Add option
            </button>
          </fieldset>
        ) : null}
      </form>
    </Dialog>
  );
}
