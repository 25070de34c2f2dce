"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  ZProperty,
  ZPropertyValuesPatch,
  propertyVisibilities,
  type TProductResponse,
} from "@/server/domain/catalog/products/product.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { problemFrom } from "../../ui/problem";
import { Form, RowListField, SelectField, TextField, useSchemaForm, type RowColumn } from "../../ui/form";

type Property = TProductResponse["propertyValues"][string];
type MetadataRow = { key: string; value: string };
type Values = {
  name: string;
  property: { key: string; value: string; visibility: string; metadata: MetadataRow[] };
};

/** One entry of the product's property map, checked by the API's own name and property rules. */
const ZPropertyEdit = z.object({ name: ZPropertyValuesPatch.keyType, property: ZProperty });
type PropertyEdit = z.infer<typeof ZPropertyEdit>;

const metadataColumns: RowColumn<MetadataRow>[] = [
  { key: "key", header: "Key", cell: "key" },
  { key: "value", header: "Value", cell: "value", wide: true },
];

/** Adds a property, or edits (and renames) one: a rename removes the old name in the same update. */
export function PropertyDialog({
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
  const form = useSchemaForm<Values, PropertyEdit>(ZPropertyEdit, {
    defaultValues: {
      name: initialName,
      property: {
        key: property?.key ?? "",
        value: property?.value ?? "",
        visibility: property?.visibility ?? "Private",
        metadata: property?.metadata.map((m) => ({ key: m.key, value: m.value })) ?? [],
      },
    },
    // A blank key means "the same as the name", which the API says by leaving it out.
    toPayload: (v) => ({
      name: v.name,
      property: { ...v.property, key: v.property.key.trim() || undefined },
    }),
  });
  const save = useMutation(
    trpc.products.update.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        onClose();
      },
      onError: async (error) => {
        // A stale revision: load the product again before saying so (the mutation stays pending,
        // Save disabled, meanwhile), so "the latest version is loaded" is true when read and the
        // next save is made against it.
        if (problemFrom(error)?.codeName === "concurrency.revision_mismatch")
          await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        form.showProblem(error);
      },
    }),
  );

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
      <Form
        form={form}
        id="property-form"
        onSubmit={({ name, property: edited }) => {
          save.reset();
          const renamed = property && name !== initialName;
          save.mutate({
            id: product.id,
            patch: {
              propertyValues: { ...(renamed ? { [initialName]: null } : {}), [name]: edited },
              revisionNumber: product.revisionNumber,
            },
          });
        }}
      >
        <div className="form-grid">
          <TextField name="name" label="Name" />
          <TextField name="property.key" label="Key" hint="Blank: the same as the name." />
          <SelectField
            name="property.visibility"
            label="Visibility"
            options={propertyVisibilities.map((v) => ({ value: v, label: v }))}
          />
        </div>
        <TextField name="property.value" label="Value" />
        <fieldset className="form-section">
          <legend>Metadata</legend>
          <RowListField<MetadataRow>
            name="property.metadata"
            listLabel="Metadata"
            label="Metadata"
            rowName="Metadata"
            columns={metadataColumns}
            newRow={() => ({ key: "", value: "" })}
            addLabel="Add metadata"
          />
        </fieldset>
      </Form>
    </Dialog>
  );
}
