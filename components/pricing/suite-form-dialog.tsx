"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZSuiteCreateRequest,
  ZSuiteUpdateRequest,
  type TSuiteResponse,
} from "@/server/domain/pricing/suites/suite.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { ProductPicker, productLabel, type ProductOption } from "./product-picker";

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
  const [code, setCode] = useState(suite?.code ?? "");
  const [name, setName] = useState(suite?.name ?? "");
  const [description, setDescription] = useState(suite?.description ?? "");
  const [members, setMembers] = useState<ProductOption[]>([]);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.suites.pathKey() });
  const create = useMutation(
    trpc.suites.create.mutationOptions({
      onSuccess: async (created) => {
        await invalidate();
        onCreated?.(created);
        onClose();
      },
    }),
  );
  const update = useMutation(
    trpc.suites.update.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        onClose();
      },
    }),
  );
  const mutation = suite ? update : create;
  const problem = localProblem ?? problemFrom(mutation.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    mutation.reset();
    if (suite) {
      const parsed = ZSuiteUpdateRequest.safeParse({ code, name, description });
      if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
      return update.mutate({ suiteId: suite.id, patch: parsed.data });
    }
    const parsed = ZSuiteCreateRequest.safeParse({
      code,
      name,
      description,
      memberProductIds: members.map((m) => m.id),
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
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
          <button type="submit" form="suite-form" className="btn btn-primary" disabled={mutation.isPending}>
            {mutation.isPending ? "Saving…" : suite ? "Save" : "Create suite"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="suite-form" className="form pricing" onSubmit={submit} noValidate>
        <div className="form-row">
          <Field label="Name" htmlFor="suite-name" error={fieldError(problem, "name")}>
            <input id="suite-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          </Field>
          <Field
            label="Code"
            htmlFor="suite-code"
            hint="Unique in your catalog."
            error={fieldError(problem, "code")}
          >
            <input id="suite-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
        </div>
        <Field label="Description" htmlFor="suite-description" error={fieldError(problem, "description")}>
          <textarea
            id="suite-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        {suite ? null : (
          <Field label="Members (sell order)" error={fieldError(problem, "memberProductIds")}>
            {members.length ? (
              <ol className="summary-list" data-testid="new-suite-members">
                {members.map((m) => (
                  <li key={m.id}>
                    {productLabel(m)}{" "}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setMembers(members.filter((x) => x.id !== m.id))}
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
              id="suite-new-member"
              exclude={members.map((m) => m.id)}
              onPick={(p) => setMembers([...members, p])}
            />
          </Field>
        )}
      </form>
    </Dialog>
  );
}
