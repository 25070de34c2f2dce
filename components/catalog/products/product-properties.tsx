"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TProductResponse } from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { ConfirmDialog } from "../../ui/form";
import { PropertyDialog } from "./property-dialog";

type Property = TProductResponse["propertyValues"][string];

/** Custom properties; Public ones are returned with the license metadata on activation. */
export function ProductProperties({ product, readOnly }: { product: TProductResponse; readOnly: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<{ name: string; property: Property | null } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const remove = useMutation(
    trpc.products.update.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        setRemoving(null);
      },
    }),
  );
  const entries = Object.entries(product.propertyValues).sort(([a], [b]) => a.localeCompare(b));

  return (
    <section className="panel" aria-labelledby="properties-heading">
      <div className="panel-head">
        <h2 id="properties-heading">Properties</h2>
        <span className="muted small">
          Public properties travel with license metadata; Private stay here.
        </span>
        <span className="toolbar-spacer" />
        {readOnly ? null : (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setEditing({ name: "", property: null })}
          >
            Add property
          </button>
        )}
      </div>
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Properties">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
              <th scope="col">Visibility</th>
              <th scope="col">Metadata</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {entries.length === 0 ? (
              <tr>
                <td colSpan={6} className="table-empty">
                  No properties.
                </td>
              </tr>
            ) : (
              entries.map(([name, p]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td>
                    <code>{p.key}</code>
                  </td>
                  <td>
                    <span className="value-code">{p.value}</span>
                  </td>
                  <td>
                    <span className={`badge ${p.visibility === "Public" ? "badge-ok" : ""}`}>
                      {p.visibility}
                    </span>
                  </td>
                  <td className="small">
                    {p.metadata.map((m) => `${m.key}=${m.value}`).join(", ") || (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>
                    {readOnly ? null : (
                      <span className="row-actions">
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => setEditing({ name, property: p })}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-danger-ghost"
                          onClick={() => {
                            remove.reset();
                            setRemoving(name);
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
      {editing ? (
        <PropertyDialog
          product={product}
          name={editing.name}
          property={editing.property}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove property “${removing ?? ""}”?`}
        confirmLabel="Remove property"
        danger
        busy={remove.isPending}
        error={remove.error}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing !== null &&
          remove.mutate({
            id: product.id,
            patch: { propertyValues: { [removing]: null }, revisionNumber: product.revisionNumber },
          })
        }
        consequences={["Licenses issued from now on no longer carry it."]}
      />
    </section>
  );
}
