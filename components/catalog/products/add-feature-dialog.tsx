"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZProductFeatureCreateRequest,
  type TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { validateFeatureValue } from "@/server/domain/catalog/feature-catalog/feature-value";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";
import { FeatureValueInput } from "../feature-value-input";
import { FeatureFlagsInput, defaultFlags } from "./feature-flags";

/** Attaches a feature catalog entry (Draft, Preview or Published) with the product's value for it. */
export function AddFeatureDialog({ product, onClose }: { product: TProductResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [featureCatalogId, setFeatureCatalogId] = useState("");
  const [value, setValue] = useState("");
  const [name, setName] = useState("");
  const [moduleName, setModuleName] = useState("");
  const [description, setDescription] = useState("");
  const [position, setPosition] = useState("");
  const [flags, setFlags] = useState(defaultFlags);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);

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
    }),
  );
  const problem = localProblem ?? problemFrom(add.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    add.reset();
    const parsed = ZProductFeatureCreateRequest.safeParse({
      featureCatalogId,
      value: value === "" ? null : value,
      name: name || null,
      moduleName: moduleName || null,
      description,
      sortOrder: position ? Number(position) : null,
      ...flags,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    if (entry) {
      const invalid = validateFeatureValue(entry, parsed.data.value);
      if (invalid) return setLocalProblem(validationProblem([{ path: ["value"], message: invalid }]));
    }
    add.mutate({ id: product.id, feature: parsed.data });
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
          <button type="submit" form="add-feature-form" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add feature"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="add-feature-form" className="form" onSubmit={submit} noValidate>
        <Field
          label="Catalog entry"
          htmlFor="feature-entry"
          hint="Disabled and archived entries cannot be attached."
          error={fieldError(problem, "featureCatalogId")}
        >
          <select
            id="feature-entry"
            value={featureCatalogId}
            onChange={(e) => {
              setFeatureCatalogId(e.target.value);
              setValue("");
            }}
          >
            <option value="">Choose a feature…</option>
            {choices.map((e) => (
              <option key={e.id} value={e.id}>
                {e.featureCode} — {e.name} ({e.featureType})
              </option>
            ))}
          </select>
        </Field>
        {entry ? (
          <>
            <Field
              label="Value"
              htmlFor="feature-value"
              hint={`${entry.featureType}${entry.units ? ` in ${entry.units}` : ""}${entry.metricName ? ` · metric ${entry.metricName}` : ""}`}
              error={fieldError(problem, "value")}
            >
              <FeatureValueInput id="feature-value" type={entry} value={value} onChange={setValue} />
            </Field>
            <div className="form-grid">
              <Field
                label="Name on this product"
                htmlFor="feature-name"
                hint={`Default: ${entry.name}`}
                error={fieldError(problem, "name")}
              >
                <input id="feature-name" value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
              <Field label="Module" htmlFor="feature-module" error={fieldError(problem, "moduleName")}>
                <input
                  id="feature-module"
                  value={moduleName}
                  onChange={(e) => setModuleName(e.target.value)}
                />
              </Field>
              <Field
                label="Position"
                htmlFor="feature-position"
                hint={`1–${product.features.length + 1}; default last`}
                error={fieldError(problem, "sortOrder")}
              >
                <input
                  id="feature-position"
                  inputMode="numeric"
                  value={position}
                  onChange={(e) => setPosition(e.target.value)}
                />
              </Field>
            </div>
            <Field
              label="Description"
              htmlFor="feature-description"
              error={fieldError(problem, "description")}
            >
              <input
                id="feature-description"
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
            </Field>
            <FeatureFlagsInput flags={flags} onChange={setFlags} />
          </>
        ) : null}
      </form>
    </Dialog>
  );
}
