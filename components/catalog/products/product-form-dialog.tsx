"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import {
  ZProductCreateRequest,
  ZProductUpdateRequest,
  productStatusMoves,
  productStatuses,
  type TProductResponse,
  type TProductStatus,
} from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const dateOnly = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

/** Creates a product, or edits one's own fields (merge-PATCH with its revision number). */
export function ProductFormDialog({ product, onClose }: { product?: TProductResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [name, setName] = useState(product?.name ?? "");
  const [productCode, setProductCode] = useState(product?.productCode ?? "");
  const [productVersion, setProductVersion] = useState(product?.productVersion ?? "");
  const [description, setDescription] = useState(product?.description ?? "");
  const [status, setStatus] = useState<TProductStatus>((product?.status as TProductStatus) ?? "Draft");
  const [expirationDate, setExpirationDate] = useState(dateOnly(product?.expirationDate ?? null));
  const [externalId, setExternalId] = useState(product?.externalId ?? "");
  const [applicationScopes, setApplicationScopes] = useState(product?.applicationScopes.join(", ") ?? "");
  const [tags, setTags] = useState(product?.tags.join(", ") ?? "");
  const [parentProductId, setParentProductId] = useState(product?.parentProductId ?? "");
  const [isLocked, setIsLocked] = useState(product?.isLocked ?? false);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);

  const parents = useQuery(
    trpc.products.list.queryOptions({ pageNumber: 1, pageSize: 100, sortOrder: "name" }),
  );
  const statusChoices = product
    ? [product.status as TProductStatus, ...productStatusMoves[product.status as TProductStatus]]
    : (["Draft", "Active"] as const);

  const onSuccess = async (saved: TProductResponse) => {
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    onClose();
    if (!product) router.push(`/admin/products/${saved.id}`);
  };
  const create = useMutation(trpc.products.create.mutationOptions({ onSuccess }));
  const update = useMutation(
    trpc.products.update.mutationOptions({
      onSuccess,
      onError: (error) => {
        if (problemFrom(error)?.codeName === "concurrency.revision_mismatch")
          void queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
      },
    }),
  );
  const mutation = product ? update : create;
  const problem = localProblem ?? problemFrom(mutation.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    mutation.reset();
    const expiration = expirationDate ? `${expirationDate}T00:00:00Z` : null;
    if (!product) {
      const parsed = ZProductCreateRequest.safeParse({
        name,
        productCode,
        productVersion,
        description,
        status,
        expirationDate: expiration,
        externalId: externalId || null,
        applicationScopes: list(applicationScopes),
        tags: list(tags),
        parentProductId: parentProductId || null,
        isLocked,
      });
      if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
      create.mutate(parsed.data);
      return;
    }
    const parsed = ZProductUpdateRequest.safeParse({
      name,
      productCode,
      productVersion,
      description,
      status: status !== product.status ? status : undefined,
      ...(expiration
        ? { expirationDate: expiration }
        : { clearExpirationDate: product.expirationDate !== null }),
      ...(externalId ? { externalId } : { clearExternalId: product.externalId !== null }),
      ...(parentProductId ? { parentProductId } : { clearParentProductId: product.parentProductId !== null }),
      applicationScopes: list(applicationScopes),
      tags: list(tags),
      isLocked,
      revisionNumber: product.revisionNumber,
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    update.mutate({ id: product.id, patch: parsed.data });
  }

  return (
    <Dialog
      open
      wide
      title={product ? `Edit product “${product.name}”` : "New product"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="product-form" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : product ? "Save" : "Create product"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      {product?.isLocked ? (
        <p className="muted small">This product is locked: untick “Locked” to change it.</p>
      ) : null}
      <form id="product-form" className="form" onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="product-name" error={fieldError(problem, "name")}>
          <input
            id="product-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            autoFocus
          />
        </Field>
        <div className="form-grid">
          <Field
            label="Product code"
            htmlFor="product-code"
            hint="Unique with the version."
            error={fieldError(problem, "productCode")}
          >
            <input
              id="product-code"
              className="mono"
              value={productCode}
              onChange={(e) => setProductCode(e.target.value)}
              maxLength={100}
            />
          </Field>
          <Field
            label="Version"
            htmlFor="product-version"
            hint="Empty, or 1–4 numbers: 2, 2.1, 2.1.0"
            error={fieldError(problem, "productVersion")}
          >
            <input
              id="product-version"
              className="mono"
              value={productVersion}
              onChange={(e) => setProductVersion(e.target.value)}
              maxLength={50}
            />
          </Field>
          <Field
            label="Status"
            htmlFor="product-status"
            hint={product ? "Only the allowed moves are offered." : undefined}
            error={fieldError(problem, "status")}
          >
            <select
              id="product-status"
              value={status}
              onChange={(e) => setStatus(e.target.value as TProductStatus)}
            >
              {productStatuses
                .filter((s) => (statusChoices as readonly string[]).includes(s))
                .map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
            </select>
          </Field>
          <Field
            label="Expiration date"
            htmlFor="product-expiration"
            hint="No longer deployable after it."
            error={fieldError(problem, "expirationDate")}
          >
            <input
              id="product-expiration"
              type="date"
              value={expirationDate}
              onChange={(e) => setExpirationDate(e.target.value)}
            />
          </Field>
        </div>
        <Field label="Description" htmlFor="product-description" error={fieldError(problem, "description")}>
          <textarea
            id="product-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <div className="form-grid">
          <Field label="External id" htmlFor="product-external-id" error={fieldError(problem, "externalId")}>
            <input
              id="product-external-id"
              value={externalId}
              onChange={(e) => setExternalId(e.target.value)}
            />
          </Field>
          <Field
            label="Parent product"
            htmlFor="product-parent"
            error={fieldError(problem, "parentProductId")}
          >
            <select
              id="product-parent"
              value={parentProductId}
              onChange={(e) => setParentProductId(e.target.value)}
            >
              <option value="">(none)</option>
              {(parents.data?.items ?? [])
                .filter((p) => p.id !== product?.id)
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} ({p.productCode}
                    {p.productVersion ? ` ${p.productVersion}` : ""})
                  </option>
                ))}
            </select>
          </Field>
          <Field
            label="Application scopes"
            htmlFor="product-scopes"
            hint="Comma-separated."
            error={fieldError(problem, "applicationScopes")}
          >
            <input
              id="product-scopes"
              value={applicationScopes}
              onChange={(e) => setApplicationScopes(e.target.value)}
            />
          </Field>
          <Field
            label="Tags"
            htmlFor="product-tags"
            hint="Comma-separated; new names join the Product tags."
            error={fieldError(problem, "tags")}
          >
            <input id="product-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
          </Field>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={isLocked} onChange={(e) => setIsLocked(e.target.checked)} />
          Locked (refuses every change until unlocked)
        </label>
      </form>
    </Dialog>
  );
}
