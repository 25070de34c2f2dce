"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import {
  ZFeatureCodeRequest,
  type TFeatureCatalogResponse,
} from "@/server/domain/catalog/feature-catalog/feature-catalog.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ProblemAlert } from "../../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../../ui/problem";

/** Renames an entry's code; products follow, plan sets and add-ons that store the code refuse it. */
export function FeatureCodeDialog({
  entry,
  onClose,
}: {
  entry: TFeatureCatalogResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [featureCode, setFeatureCode] = useState(entry.featureCode);
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const change = useMutation(
    trpc.featureCatalog.changeCode.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.featureCatalog.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
        onClose();
      },
    }),
  );
  const problem = localProblem ?? problemFrom(change.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    change.reset();
    const parsed = ZFeatureCodeRequest.safeParse({ featureCode, revisionNumber: entry.revisionNumber });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    change.mutate({ id: entry.id, ...parsed.data });
  }
  return (
    <Dialog
      open
      title={`Change the code of ${entry.featureCode}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="feature-code-form"
            className="btn btn-primary"
            disabled={change.isPending}
          >
            {change.isPending ? "Saving…" : "Change code"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="feature-code-form" className="form" onSubmit={submit} noValidate>
        <Field
          label="New feature code"
          htmlFor="new-feature-code"
          hint="Products follow the new code. An entry used by plan sets or add-ons keeps its code."
          error={fieldError(problem, "featureCode")}
        >
          <input
            id="new-feature-code"
            className="mono"
            value={featureCode}
            onChange={(e) => setFeatureCode(e.target.value)}
            autoFocus
          />
        </Field>
      </form>
    </Dialog>
  );
}
