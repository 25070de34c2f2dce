import { TRPCClientError } from "@trpc/client";
import { fieldIssueSentence, issueTemplate, type IssueFacts } from "./form/messages";

/** The problem+json shape the server attaches to refusals (server/http/problem.ts). */
export type ProblemJson = {
  type?: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code?: number;
  codeName?: string;
  correlationId?: string;
  errors?: { path: string; message: string }[];
};

/** The problem behind any error the UI catches: a tRPC refusal, a failed fetch, or a bug. */
export function problemFrom(error: unknown): ProblemJson | null {
  if (!error) return null;
  if (error instanceof TRPCClientError) {
    const data = error.data as
      { problem?: ProblemJson | null; httpStatus?: number; code?: string } | undefined;
    if (data?.problem) return data.problem;
    return { title: data?.code ?? "Request failed", status: data?.httpStatus ?? 0, detail: error.message };
  }
  if (isProblem(error)) return error;
  return {
    title: "Request failed",
    status: 0,
    detail: error instanceof Error ? error.message : String(error),
  };
}

export function isProblem(value: unknown): value is ProblemJson {
  return (
    typeof value === "object" && value !== null && "title" in value && "detail" in value && "status" in value
  );
}

/**
 * Client-side validation result in the same shape as the server's validation problem; each message
 * is the catalogue's sentence template (components/ui/form/messages.ts), labelled where it shows.
 */
export function validationProblem(
  issues: readonly ((IssueFacts | { code?: undefined; message: string }) & { path: PropertyKey[] })[],
): ProblemJson {
  // A zod issue gets the catalogue's sentence; a form's own check keeps the sentence it wrote.
  const errors = issues.map((i) => ({
    path: i.path.map(String).join("."),
    message: i.code ? issueTemplate(i) : (i as { message: string }).message,
  }));
  return {
    title: "Validation error",
    status: 400,
    codeName: "license.validation_error",
    detail: "Some values need correcting.",
    errors,
  };
}

/** The sentence for one field, from a problem's field errors; `label` names it as the form does. */
export function fieldError(problem: ProblemJson | null, field: string, label?: string): string | undefined {
  const issue = problem?.errors?.find((e) => e.path === field || e.path.endsWith(`.${field}`));
  return issue ? fieldIssueSentence(issue, problem?.codeName, label) : undefined;
}
