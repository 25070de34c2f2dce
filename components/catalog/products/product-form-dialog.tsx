"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
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
import { CheckboxField, DateField, Form, SelectField, TextField, useSchemaForm } from "../../ui/form";
import { problemFrom } from "../../ui/problem";

type Values = {
  name: string;
  productCode: string;
  productVersion: string;
  description: string;
  status: TProductStatus;
  expiresOn: string;
  externalId: string;
  applicationScopes: string;
  tags: string;
  parentProductId: string;
  isLocked: boolean;
};

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const dateOnly = (iso: string | null) => (iso ? iso.slice(0, 10) : "");
const fieldOf = { expirationDate: "expiresOn", clearExpirationDate: "expiresOn" };

/** The create request the values stand for. */
const createPayload = (v: Values) => ({
  name: v.name,
  productCode: v.productCode,
  productVersion: v.productVersion,
  description: v.description,
  status: v.status,
  expirationDate: v.expiresOn ? `${v.expiresOn}T00:00:00Z` : null,
  externalId: v.externalId || null,
  applicationScopes: list(v.applicationScopes),
  tags: list(v.tags),
  parentProductId: v.parentProductId || null,
  isLocked: v.isLocked,
});

/** The merge-PATCH the values stand for: emptied optional fields are cleared, the status only when moved. */
const updatePayload = (product: TProductResponse) => (v: Values) => ({
  name: v.name,
  productCode: v.productCode,
  productVersion: v.productVersion,
  description: v.description,
  status: v.status !== product.status ? v.status : undefined,
  ...(v.expiresOn
    ? { expirationDate: `${v.expiresOn}T00:00:00Z` }
    : { clearExpirationDate: product.expirationDate !== null }),
  ...(v.externalId ? { externalId: v.externalId } : { clearExternalId: product.externalId !== null }),
  ...(v.parentProductId
    ? { parentProductId: v.parentProductId }
    : { clearParentProductId: product.parentProductId !== null }),
  applicationScopes: list(v.applicationScopes),
  tags: list(v.tags),
  isLocked: v.isLocked,
  revisionNumber: product.revisionNumber,
});

/** Creates a product, or edits one's own fields (merge-PATCH with its revision number). */
export function ProductFormDialog({ product, onClose }: { product?: TProductResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const form = useSchemaForm<Values, unknown>(product ? ZProductUpdateRequest : ZProductCreateRequest, {
    defaultValues: {
      name: product?.name ?? "",
      productCode: product?.productCode ?? "",
      productVersion: product?.productVersion ?? "",
      description: product?.description ?? "",
      status: (product?.status as TProductStatus) ?? "Draft",
      expiresOn: dateOnly(product?.expirationDate ?? null),
      externalId: product?.externalId ?? "",
      applicationScopes: product?.applicationScopes.join(", ") ?? "",
      tags: product?.tags.join(", ") ?? "",
      parentProductId: product?.parentProductId ?? "",
      isLocked: product?.isLocked ?? false,
    },
    toPayload: product ? updatePayload(product) : createPayload,
    fieldOf,
  });

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
  const create = useMutation(trpc.products.create.mutationOptions({ onSuccess, onError: form.showProblem }));
  const update = useMutation(
    trpc.products.update.mutationOptions({
      onSuccess,
      onError: async (error) => {
        // As the property dialog: the latest product is loaded before the message says it is.
        if (problemFrom(error)?.codeName === "concurrency.revision_mismatch")
          await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        form.showProblem(error);
      },
    }),
  );
  const pending = create.isPending || update.isPending;

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
          <button type="submit" form="product-form" className="btn btn-primary" disabled={pending}>
            {pending ? "Saving…" : product ? "Save" : "Create product"}
          </button>
        </>
      }
    >
      {product?.isLocked ? (
        <p className="muted small">This product is locked: untick “Locked” to change it.</p>
      ) : null}
      <Form
        form={form}
        id="product-form"
        onSubmit={(payload) =>
          product
            ? update.mutate({ id: product.id, patch: payload as never })
            : create.mutate(payload as never)
        }
      >
        <TextField name="name" label="Name" autoFocus />
        <div className="form-grid">
          <TextField name="productCode" label="Product code" hint="Unique with the version." mono />
          <TextField name="productVersion" label="Version" hint="Empty, or 1–4 numbers: 2, 2.1, 2.1.0" mono />
          <SelectField
            name="status"
            label="Status"
            hint={product ? "Only the allowed moves are offered." : undefined}
            options={productStatuses
              .filter((s) => (statusChoices as readonly string[]).includes(s))
              .map((s) => ({ value: s, label: s }))}
          />
          <DateField name="expiresOn" label="Expiration date" hint="No longer deployable after it." />
        </div>
        <TextField name="description" label="Description" multiline rows={3} />
        <div className="form-grid">
          <TextField name="externalId" label="External id" />
          <SelectField
            name="parentProductId"
            label="Parent product"
            emptyLabel="(none)"
            options={(parents.data?.items ?? [])
              .filter((p) => p.id !== product?.id)
              .map((p) => ({
                value: p.id,
                label: `${p.name} (${p.productCode}${p.productVersion ? ` ${p.productVersion}` : ""})`,
              }))}
          />
          <TextField name="applicationScopes" label="Application scopes" hint="Comma-separated." />
          <TextField name="tags" label="Tags" hint="Comma-separated; new names join the Product tags." />
        </div>
        <CheckboxField name="isLocked" label="Locked (refuses every change until unlocked)" />
      </Form>
    </Dialog>
  );
}
