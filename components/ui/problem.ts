import { TRPCClientError } from "@trpc/client";

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

/** Client-side validation result in the same shape as the server's validation problem. */
export function validationProblem(issues: { path: PropertyKey[]; message: string }[]): ProblemJson {
  const errors = issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  return {
    title: "Validation error",
    status: 400,
    codeName: "license.validation_error",
    detail: errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join("; "),
    errors,
  };
}

/** The message for one field, from a problem's field errors. */
export function fieldError(problem: ProblemJson | null, field: string): string | undefined {
  return problem?.errors?.find((e) => e.path === field || e.path.endsWith(`.${field}`))?.message;
}
