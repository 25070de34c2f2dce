"use client";

import { useState, type ReactNode } from "react";
import { FormProvider, type FieldValues, type SubmitHandler } from "react-hook-form";
import type { z } from "zod";
import { Kit } from "./kit-context";
import { ProblemSummary } from "./problem-summary";
import type { SchemaForm } from "./use-schema-form";

/**
 * A `<form>` bound to a schema form: it validates on submit, lists the refusal at the top (field
 * errors link to their fields) and hands `onSubmit` the parsed request. Put the submit button
 * inside, or anywhere with `form={id}` (dialog footers).
 */
export function Form<V extends FieldValues, P>({
  form,
  id,
  onSubmit,
  children,
  className = "form",
  label,
}: {
  form: SchemaForm<V, P>;
  id: string;
  onSubmit: SubmitHandler<P>;
  children: ReactNode;
  className?: string;
  /** The form's accessible name, when no heading names it. */
  label?: string;
}) {
  const [labels] = useState(() => new Map<string, string>());
  const submit = form.handleSubmit(async (payload) => {
    form.clearProblem();
    await onSubmit(payload);
  });
  return (
    <FormProvider {...form}>
      <Kit.Provider value={{ formId: id, schema: form.schema as z.ZodType, labels }}>
        <form id={id} className={className} aria-label={label} noValidate onSubmit={(e) => void submit(e)}>
          <ProblemSummary problem={form.problem} />
          {children}
        </form>
      </Kit.Provider>
    </FormProvider>
  );
}
