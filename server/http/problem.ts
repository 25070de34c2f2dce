import { AppError, errorCatalog, type CodeName, type FieldIssue } from "../core/errors.ts";
import { answerResponse, type Answer } from "./route-request.ts";

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

/** The problem+json answer of `error` (server/http/route-request.ts), for the wrapper and the runtime lane. */
export function problemAnswer(
  error: AppError,
  instance: string,
  correlationId?: string,
  headers: Record<string, string> = {},
): Answer {
  return {
    status: error.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, ...headers, ...(error.headers ?? {}) },
    body: JSON.stringify(toProblem(error, instance, correlationId)),
  };
}

export function problemResponse(
  error: AppError,
  instance: string,
  correlationId?: string,
  headers: Record<string, string> = {},
): Response {
  return answerResponse(problemAnswer(error, instance, correlationId, headers));
}

/** An unexpected failure: a bug. The answer says nothing about its cause. */
export function internalProblemAnswer(instance: string, correlationId?: string): Answer {
  return problemAnswer(
    new AppError("internal.error", "An unexpected error occurred; it has been logged."),
    instance,
    correlationId,
    correlationId ? { "x-correlation-id": correlationId } : {},
  );
}

export function internalProblem(instance: string, correlationId?: string): Response {
  return answerResponse(internalProblemAnswer(instance, correlationId));
}
