"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useController } from "react-hook-form";
import type { z } from "zod";
import {
  ZSuiteCreateRequest,
  ZSuiteUpdateRequest,
  type TSuiteCreateRequest,
  type TSuiteResponse,
  type TSuiteUpdateRequest,
} from "@/server/domain/pricing/suites/suite.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { FieldShell, Form, TextField, useSchemaForm } from "../ui/form";
import { ProductPicker, productLabel, type ProductOption } from "./product-picker";

type Values = { code: string; name: string; description: string; members: ProductOption[] };
type Payload = TSuiteCreateRequest | TSuiteUpdateRequest;

/** A new suite's first members, in sell order: picked products, each removable. */
function MembersField() {
  const { field } = useController({ name: "members" });
  const members = field.value as ProductOption[];
  return (
    <FieldShell name="members" label="Members (sell order)">
      {({ id }) => (
        <div>
          {members.length ? (
            <ol className="summary-list" data-testid="new-suite-members">
              {members.map((m) => (
                <li key={m.id}>
                  {productLabel(m)}{" "}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => field.onChange(members.filter((x) => x.id !== m.id))}
                  >
                    remove
                  </button>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted small">No members yet; you can add them later.</p>
          )}
          <ProductPicker
            id={id}
            exclude={members.map((m) => m.id)}
            onPick={(p) => field.onChange([...members, p])}
          />
        </div>
      )}
    </FieldShell>
  );
}

/** Creates a suite with its first members in sell order (no `suite`), or renames one. */
export function SuiteFormDialog({
  suite,
  onClose,
  onCreated,
}: {
  suite?: TSuiteResponse;
  onClose: () => void;
  onCreated?: (suite: TSuiteResponse) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, Payload>(
    (suite ? ZSuiteUpdateRequest : ZSuiteCreateRequest) as z.ZodType<Payload>,
    {
      defaultValues: {
        code: suite?.code ?? "",
        name: suite?.name ?? "",
        description: suite?.description ?? "",
        members: [],
      },
      toPayload: ({ members, ...fields }) =>
        suite ? fields : { ...fields, memberProductIds: members.map((m) => m.id) },
      fieldOf: { memberProductIds: "members" },
    },
  );
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.suites.pathKey() });
  const create = useMutation(
    trpc.suites.create.mutationOptions({
      onSuccess: async (created) => {
        await invalidate();
        onCreated?.(created);
        onClose();
      },
      onError: form.showProblem,
    }),
  );
  const update = useMutation(
    trpc.suites.update.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
      onError: form.showProblem,
    }),
  );
  const mutation = suite ? update : create;

  function submit(payload: Payload) {
    mutation.reset();
    if (suite) update.mutate({ suiteId: suite.id, patch: payload as TSuiteUpdateRequest });
    else create.mutate(payload as TSuiteCreateRequest);
  }

  return (
    <Dialog
      open
      wide
      title={suite ? `Edit suite “${suite.name}”` : "New suite"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="suite" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : suite ? "Save" : "Create suite"}
          </button>
        </>
      }
    >
      <Form form={form} id="suite" className="form pricing" onSubmit={submit}>
        <div className="form-row">
          <TextField name="name" label="Name" autoFocus />
          <TextField name="code" label="Code" hint="Unique in your catalog." />
        </div>
        <TextField name="description" label="Description" multiline rows={2} />
        {suite ? null : <MembersField />}
      </Form>
    </Dialog>
  );
}
