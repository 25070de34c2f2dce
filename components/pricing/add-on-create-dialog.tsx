"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ZAddOnCreateRequest,
  type TAddOnCreateRequest,
  type TAddOnResponse,
} from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Form, SelectField, TextField, useSchemaForm } from "../ui/form";

type Values = { suiteId: string; code: string; name: string; description: string };

/** A new Draft add-on of a suite (implicit suites included: a single product's add-ons live there). */
export function AddOnCreateDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (addOn: TAddOnResponse) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TAddOnCreateRequest>(ZAddOnCreateRequest, {
    defaultValues: { suiteId: "", code: "", name: "", description: "" },
  });
  const suites = useQuery(
    trpc.suites.list.queryOptions({ pageNumber: 1, pageSize: 100, sortOrder: "name", includeImplicit: true }),
  );
  const create = useMutation(
    trpc.addOns.create.mutationOptions({
      onSuccess: async (addOn) => {
        await queryClient.invalidateQueries({ queryKey: trpc.addOns.pathKey() });
        onCreated(addOn);
      },
      onError: form.showProblem,
    }),
  );

  return (
    <Dialog
      open
      title="New add-on"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="add-on-create" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create add-on"}
          </button>
        </>
      }
    >
      <Form
        form={form}
        id="add-on-create"
        onSubmit={(addOn) => {
          create.reset();
          create.mutate(addOn);
        }}
      >
        <SelectField
          name="suiteId"
          label="Suite"
          hint="An add-on belongs to a suite, not to one plan-set revision."
          emptyLabel="Choose a suite"
          options={(suites.data?.items ?? []).map((s) => ({
            value: s.id,
            label: `${s.name} (${s.code})${s.isImplicit ? " · implicit" : ""}`,
          }))}
        />
        <div className="form-row">
          <TextField name="name" label="Name" />
          <TextField name="code" label="Code" />
        </div>
        <TextField name="description" label="Description" multiline rows={2} />
      </Form>
    </Dialog>
  );
}
