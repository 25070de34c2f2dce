"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type {
  TProductFeatureResponse,
  TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { FeatureValueText } from "../feature-value-input";
import { AddFeatureDialog } from "./add-feature-dialog";
import { EditFeatureDialog } from "./edit-feature-dialog";

/** The product's features in sortOrder, with add, value editing, reordering and removal. */
export function ProductFeatures({ product, readOnly }: { product: TProductResponse; readOnly: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TProductFeatureResponse | null>(null);
  const [removing, setRemoving] = useState<TProductFeatureResponse | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
  const move = useMutation(trpc.products.updateFeature.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.products.removeFeature.mutationOptions({
      onSuccess: async () => {
        await refresh();
        setRemoving(null);
      },
    }),
  );
  const features = product.features;

  return (
    <section className="panel" aria-labelledby="features-heading">
      <div className="panel-head">
        <h2 id="features-heading">Features</h2>
        <span className="muted small">in sell order</span>
        <span className="toolbar-spacer" />
        {readOnly ? null : (
          <button type="button" className="btn btn-primary btn-small" onClick={() => setAdding(true)}>
            Add feature
          </button>
        )}
      </div>
      <ProblemAlert problem={problemFrom(move.error)} onDismiss={() => move.reset()} />
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Product features">
          <thead>
            <tr>
              <th scope="col" className="num">
                #
              </th>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Value</th>
              <th scope="col">Flags</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {features.length === 0 ? (
              <tr>
                <td colSpan={7} className="table-empty">
                  No features yet: add entries from the feature catalog.
                </td>
              </tr>
            ) : (
              features.map((f, index) => (
                <tr key={f.id} data-testid="product-feature-row">
                  <td className="num">{f.sortOrder}</td>
                  <td>
                    <code>{f.featureCode}</code>
                  </td>
                  <td>
                    {f.name}
                    {f.catalogLifecycleStatus !== "Published" ? (
                      <span className="badge badge-muted badge-gap" title="Catalog lifecycle">
                        {f.catalogLifecycleStatus}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {f.featureType}
                    {f.units ? <span className="muted"> · {f.units}</span> : null}
                  </td>
                  <td data-testid="feature-value">
                    <FeatureValueText value={f.value} />
                  </td>
                  <td className="small">
                    {[
                      f.isEnabled ? "enabled" : "disabled",
                      f.includeInLicenseToken ? "in token" : null,
                      f.isPaidFeature ? "paid" : null,
                      f.visibility === "Internal" ? "internal" : null,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </td>
                  <td>
                    {readOnly ? null : (
                      <span className="row-actions">
                        <span className="order-buttons">
                          <button
                            type="button"
                            className="btn btn-small btn-ghost"
                            aria-label={`Move ${f.featureCode} up`}
                            disabled={index === 0 || move.isPending}
                            onClick={() =>
                              move.mutate({
                                id: product.id,
                                featureId: f.id,
                                patch: { sortOrder: f.sortOrder - 1 },
                              })
                            }
                          >
                            ↑
                          </button>
                          <button
                            type="button"
                            className="btn btn-small btn-ghost"
                            aria-label={`Move ${f.featureCode} down`}
                            disabled={index === features.length - 1 || move.isPending}
                            onClick={() =>
                              move.mutate({
                                id: product.id,
                                featureId: f.id,
                                patch: { sortOrder: f.sortOrder + 1 },
                              })
                            }
                          >
                            ↓
                          </button>
                        </span>
                        <button type="button" className="btn btn-small" onClick={() => setEditing(f)}>
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-danger-ghost"
                          onClick={() => {
                            remove.reset();
                            setRemoving(f);
                          }}
                        >
                          Remove
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {adding ? <AddFeatureDialog product={product} onClose={() => setAdding(false)} /> : null}
      {editing ? (
        <EditFeatureDialog product={product} feature={editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={!!removing}
        title={removing ? `Remove ${removing.featureCode} from the product?` : "Remove feature"}
        confirmLabel="Remove feature"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ id: product.id, featureId: removing.id })}
      >
        <p>
          The feature leaves this product; the catalog entry stays. The features after it move up one place.
        </p>
      </ConfirmDialog>
    </section>
  );
}
