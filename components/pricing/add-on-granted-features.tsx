"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TAddOnResponse } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import type { FeatureOption } from "./feature-value-row";

/** The features an add-on switches on, and granting one more (its own action, saved at once). */
export function AddOnGrantedFeatures({
  addOn,
  features,
  readOnly,
}: {
  addOn: TAddOnResponse;
  features: FeatureOption[] | undefined;
  readOnly: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [newFeature, setNewFeature] = useState("");
  const addFeature = useMutation(
    trpc.addOns.addFeature.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.addOns.pathKey() }),
    }),
  );
  return (
    <section className="panel">
      <h2>Features granted</h2>
      <ProblemAlert problem={problemFrom(addFeature.error)} onDismiss={() => addFeature.reset()} />
      {addOn.features.length ? (
        <ul className="chips" data-testid="add-on-features">
          {addOn.features.map((f) => (
            <li key={f.featureCatalogId} className="chip">
              {f.name ?? "Deleted feature"} <code>{f.featureCode}</code>
              {f.isDeleted ? " (deleted)" : ""}&nbsp;
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No features yet.</p>
      )}
      {readOnly ? null : (
        <div className="inline-add">
          <select
            aria-label="Feature to grant"
            value={newFeature}
            onChange={(e) => setNewFeature(e.target.value)}
          >
            <option value="">Choose a feature</option>
            {(features ?? [])
              .filter((f) => !addOn.features.some((g) => g.featureCatalogId === f.id))
              .map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name} ({f.featureCode})
                </option>
              ))}
          </select>
          <button
            type="button"
            className="btn btn-small"
            disabled={!newFeature || addFeature.isPending}
            onClick={() => addFeature.mutate({ addOnId: addOn.id, featureCatalogId: newFeature })}
          >
            Grant feature
          </button>
        </div>
      )}
    </section>
  );
}
