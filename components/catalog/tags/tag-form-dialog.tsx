"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useController } from "react-hook-form";
import type { z } from "zod";
import {
  ZTagCreateRequest,
  ZTagUpdateRequest,
  tagScopes,
  type TTagCreateRequest,
  type TTagResponse,
  type TTagUpdateRequest,
} from "@/server/domain/catalog/tags/tag.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { ColorInput } from "../../ui/color-input";
import { FieldShell, Form, SelectField, TextField, useSchemaForm } from "../../ui/form";
import { problemFrom } from "../../ui/problem";

type Values = { scope: string; name: string; color: string };
type Payload = TTagCreateRequest | TTagUpdateRequest;

/** The colour as the kit's field: a picker and its #rrggbb text, "" for none. */
function ColourField() {
  const { field } = useController({ name: "color" });
  return (
    <FieldShell name="color" label="Colour">
      {({ id }) => <ColorInput id={id} value={(field.value as string) ?? ""} onChange={field.onChange} />}
    </FieldShell>
  );
}

/** The update of a tag: only what changed, a blank colour clearing it (with optimistic concurrency). */
function tagPatch(v: Values, tag: TTagResponse): TTagUpdateRequest {
  const patch: TTagUpdateRequest = { revisionNumber: tag.revisionNumber };
  if (v.name.trim() !== tag.name) patch.name = v.name;
  if (v.color && v.color.toLowerCase() !== tag.color) patch.color = v.color;
  if (!v.color && tag.color) patch.clearColor = true;
  return patch;
}

/** Creates a tag (no `tag`) or renames/recolours one (with optimistic concurrency). */
export function TagFormDialog({
  tag,
  defaultScope,
  onClose,
}: {
  tag?: TTagResponse;
  defaultScope?: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, Payload>(
    (tag ? ZTagUpdateRequest : ZTagCreateRequest) as z.ZodType<Payload>,
    {
      defaultValues: {
        scope: tag?.scope ?? defaultScope ?? tagScopes[0],
        name: tag?.name ?? "",
        color: tag?.color ?? "",
      },
      toPayload: (v) => (tag ? tagPatch(v, tag) : { scope: v.scope, name: v.name, color: v.color || null }),
    },
  );

  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
    onClose();
  };
  const create = useMutation(trpc.tags.create.mutationOptions({ onSuccess, onError: form.showProblem }));
  const update = useMutation(
    trpc.tags.update.mutationOptions({
      onSuccess,
      onError: (error) => {
        form.showProblem(error);
        // A stale revision means the list is stale too: refresh it behind the dialog.
        if (problemFrom(error)?.codeName === "concurrency.revision_mismatch")
          void queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
      },
    }),
  );
  const mutation = tag ? update : create;

  function submit(payload: Payload) {
    mutation.reset();
    if (tag) update.mutate({ id: tag.id, patch: payload as TTagUpdateRequest });
    else create.mutate(payload as TTagCreateRequest);
  }

  const stale = form.problem?.codeName === "concurrency.revision_mismatch";
  return (
    <Dialog
      open
      title={tag ? `Edit tag “${tag.name}”` : "New tag"}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="tag" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : tag ? "Save" : "Create tag"}
          </button>
        </>
      }
    >
      {stale ? (
        <p className="muted small">
          Someone changed this tag meanwhile; the list now shows the current version. Close this dialog and
          edit again.
        </p>
      ) : null}
      <Form form={form} id="tag" onSubmit={submit}>
        <SelectField
          name="scope"
          label="Scope"
          disabled={Boolean(tag)}
          hint={tag ? "A tag keeps the scope it was created in." : "The kind of record the tag labels."}
          options={tagScopes.map((s) => ({ value: s, label: s }))}
        />
        <TextField name="name" label="Name" autoFocus />
        <ColourField />
      </Form>
    </Dialog>
  );
}
