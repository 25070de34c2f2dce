import type { z } from "zod";
import type { FieldIssue } from "./errors.ts";

/** A zod error as field issues with dotted paths under `prefix` (`body.name`, `query.pageSize`). */
export function zodIssues(error: z.ZodError, prefix: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
}
