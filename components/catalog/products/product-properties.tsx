"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZProductUpdateRequest,
  propertyVisibilities,
  type TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";

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
        problem={problemFrom(remove.error)}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing !== null &&
          remove.mutate({
            id: product.id,
            patch: { propertyValues: { [removing]: null }, revisionNumber: product.revisionNumber },
          })
        }
      >
        <p>Licenses issued from now on no longer carry it.</p>
      </ConfirmDialog>
    </section>
  );
}

function PropertyDialog({
  product,
  name: initialName,
  property,
  onClose,
}: {
  product: TProductResponse;
  name: string;
  property: Property | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initialName);
  const [key, setKey] = useState(property?.key ?? "");
  const [value, setValue] = useState(property?.value ?? "");
  const [visibility, setVisibility] = useState<string>(property?.visibility ?? "Private");
  const [metadata, setMetadata] = useState(property?.metadata ?? []);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const save = useMutation(
    trpc.products.update.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        onClose();
      },
    }),
  );
  const problem = localProblem ?? problemFrom(save.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    save.reset();
    const renamed = property && name.trim() !== initialName;
    const parsed = ZProductUpdateRequest.safeParse({
      propertyValues: {
        ...(renamed ? { [initialName]: null } : {}),
        [name]: { key: key || undefined, value, visibility, metadata },
      },
      revisionNumber: product.revisionNumber,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    save.mutate({ id: product.id, patch: parsed.data });
  }

  return (
    <Dialog
      open
      title={property ? `Edit property “${initialName}”` : "Add a property"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="property-form" className="btn btn-primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save property"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="property-form" className="form" onSubmit={submit} noValidate>
        <div className="form-grid">
          <Field label="Name" htmlFor="property-name" error={fieldError(problem, "propertyValues")}>
            <input id="property-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Key" htmlFor="property-key" hint="Defaults to the name.">
            <input id="property-key" value={key} onChange={(e) => setKey(e.target.value)} />
          </Field>
          <Field label="Visibility" htmlFor="property-visibility">
            <select
              id="property-visibility"
              value={visibility}
              onChange={(e) => setVisibility(e.target.value)}
            >
              {propertyVisibilities.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label="Value" htmlFor="property-value">
          <input id="property-value" value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
        <fieldset className="form-section">
          <legend>Metadata</legend>
          <table className="grid-editor">
            <tbody>
              {metadata.map((m, i) => (
                <tr key={i}>
                  <td>
                    <input
                      aria-label={`Metadata ${i + 1} key`}
                      value={m.key}
                      onChange={(e) =>
                        setMetadata(metadata.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))
                      }
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`Metadata ${i + 1} value`}
                      value={m.value}
                      onChange={(e) =>
                        setMetadata(metadata.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
                      }
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Remove metadata ${i + 1}`}
                      onClick={() => setMetadata(metadata.filter((_, j) => j !== i))}
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
            onClick={() => setMetadata([...metadata, { key: "", value: "" }])}
          >
            Add metadata
          </button>
        </fieldset>
      </form>
    </Dialog>
  );
}
