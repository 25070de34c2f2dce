"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZTagCreateRequest,
  ZTagUpdateRequest,
  tagScopes,
  type TTagResponse,
  type TTagUpdateRequest,
} from "@/server/domain/catalog/tags/tag.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ColorInput } from "../../ui/color-input";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";

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
  const [scope, setScope] = useState(tag?.scope ?? defaultScope ?? tagScopes[0]);
  const [name, setName] = useState(tag?.name ?? "");
  const [color, setColor] = useState(tag?.color ?? "");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);

  const onSuccess = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
    onClose();
  };
  const create = useMutation(trpc.tags.create.mutationOptions({ onSuccess }));
  const update = useMutation(
    trpc.tags.update.mutationOptions({
      onSuccess,
      // A stale revision means the list is stale too: refresh it behind the dialog.
      onError: (error) => {
        if (problemFrom(error)?.codeName === "concurrency.revision_mismatch")
          void queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
      },
    }),
  );
  const mutation = tag ? update : create;
  const problem = localProblem ?? problemFrom(mutation.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    mutation.reset();
    if (!tag) {
      const parsed = ZTagCreateRequest.safeParse({ scope, name, color: color || null });
      if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
      create.mutate(parsed.data);
      return;
    }
    const patch: TTagUpdateRequest = { revisionNumber: tag.revisionNumber };
    if (name.trim() !== tag.name) patch.name = name;
    if (color && color.toLowerCase() !== tag.color) patch.color = color;
    if (!color && tag.color) patch.clearColor = true;
    const parsed = ZTagUpdateRequest.safeParse(patch);
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    update.mutate({ id: tag.id, patch: parsed.data });
  }

  const stale = problem?.codeName === "concurrency.revision_mismatch";
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
          <button type="submit" form="tag-form" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : tag ? "Save" : "Create tag"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      {stale ? (
        <p className="muted small">
          Someone changed this tag meanwhile; the list now shows the current version. Close this dialog and
          edit again.
        </p>
      ) : null}
      <form id="tag-form" className="form" onSubmit={submit} noValidate>
        <Field
          label="Scope"
          htmlFor="tag-scope"
          hint={tag ? "A tag keeps the scope it was created in." : "The kind of record the tag labels."}
          error={fieldError(problem, "scope")}
        >
          <select
            id="tag-scope"
            value={scope}
            onChange={(e) => setScope(e.target.value as typeof scope)}
            disabled={!!tag}
          >
            {tagScopes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Name" htmlFor="tag-name" error={fieldError(problem, "name")}>
          <input
            id="tag-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            autoFocus
            required
          />
        </Field>
        <Field label="Colour" htmlFor="tag-color" error={fieldError(problem, "color")}>
          <ColorInput id="tag-color" value={color} onChange={setColor} />
        </Field>
      </form>
    </Dialog>
  );
}
