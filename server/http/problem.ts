import { AppError, errorCatalog, type CodeName, type FieldIssue } from "../core/errors.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: number;
  codeName: CodeName;
  correlationId?: string;
  errors?: FieldIssue[];
};

export function problemType(codeName: CodeName): string {
  return `/api/v1/problems/${codeName}`;
}

export function toProblem(error: AppError, instance: string, correlationId?: string): Problem {
  const entry = errorCatalog[error.codeName];
  return {
    type: problemType(error.codeName),
    title: entry.title,
    status: entry.status,
    detail: error.message,
    instance,
    code: entry.code,
    codeName: error.codeName,
    ...(correlationId ? { correlationId } : {}),
    ...(error.issues?.length ? { errors: error.issues } : {}),
  };
}

export function problemResponse(
  error: AppError,
  instance: string,
  correlationId?: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(toProblem(error, instance, correlationId)), {
    status: error.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers, ...(error.headers ?? {}) },
  });
}

/** An unexpected failure: a bug. The answer says nothing about its cause. */
export function internalProblem(instance: string, correlationId?: string): Response {
  return problemResponse(
    new AppError("internal.error", "An unexpected error occurred; it has been logged."),
    instance,
    correlationId,
  );
}
