"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ZAddOnCreateRequest, type TAddOnResponse } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";

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
  const [suiteId, setSuiteId] = useState("");
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const suites = useQuery(
    trpc.suites.list.queryOptions({ pageNumber: 1, pageSize: 100, sortOrder: "name", includeImplicit: true }),
  );
  const create = useMutation(
    trpc.addOns.create.mutationOptions({
      onSuccess: async (addOn) => {
        await queryClient.invalidateQueries({ queryKey: trpc.addOns.pathKey() });
        onCreated(addOn);
      },
    }),
  );
  const problem = localProblem ?? problemFrom(create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    create.reset();
    const parsed = ZAddOnCreateRequest.safeParse({ suiteId, code, name, description });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    create.mutate(parsed.data);
  }

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
      <ProblemAlert problem={problem} />
      <form id="add-on-create" className="form" onSubmit={submit} noValidate>
        <Field
          label="Suite"
          htmlFor="add-on-suite"
          hint="An add-on belongs to a suite, not to one plan-set revision."
          error={fieldError(problem, "suiteId")}
        >
          <select id="add-on-suite" value={suiteId} onChange={(e) => setSuiteId(e.target.value)}>
            <option value="">Choose a suite</option>
            {(suites.data?.items ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.code}){s.isImplicit ? " · implicit" : ""}
              </option>
            ))}
          </select>
        </Field>
        <div className="form-row">
          <Field label="Name" htmlFor="add-on-name" error={fieldError(problem, "name")}>
            <input id="add-on-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Code" htmlFor="add-on-code" error={fieldError(problem, "code")}>
            <input id="add-on-code" value={code} onChange={(e) => setCode(e.target.value)} />
          </Field>
        </div>
        <Field label="Description" htmlFor="add-on-description">
          <textarea
            id="add-on-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
      </form>
    </Dialog>
  );
}
