"use client";

import { toNestErrors } from "@hookform/resolvers";
import { useCallback, useState } from "react";
import {
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from "react-hook-form";
import type { z } from "zod";
import { problemFrom, type ProblemJson } from "../problem";
import { issueTemplate, serverFieldTemplate, type IssueFacts } from "./messages";
import { limitsAt } from "./schema-limits";

/**
 * A resolver over an API schema. It validates `toPayload(values)` (the request the form will send)
 * and files each zod issue at its path with the catalogue's sentence template (messages.ts), so a
 * field shows "Seats must be between 1 and 1,000,000" whatever English the schema or zod carries.
 * The stock zodResolver keeps zod's message (in zod 4 a schema's own message wins over a parse-time
 * error map) and drops the facts a sentence needs, hence this small one over the same library.
 */
export function schemaResolver<V extends FieldValues, P>(
  schema: z.ZodType<P>,
  toPayload: (values: V) => unknown,
  fieldOf: Record<string, string> = {},
): Resolver<V, unknown, P> {
  return async (values, _context, options) => {
    const parsed = await schema.safeParseAsync(toPayload(values));
    if (parsed.success) return { values: parsed.data, errors: {} };
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const payloadPath = issue.path.map(String).join(".");
      const path = fieldOf[payloadPath] ?? (payloadPath || "root");
      if (errors[path]) continue;
      const limits = limitsAt(schema, payloadPath);
      errors[path] = {
        type: issue.code,
        message: issueTemplate(issue as IssueFacts, { min: limits.min, max: limits.max }),
      };
    }
    return { values: {}, errors: toNestErrors(errors, options) } as never;
  };
}

export type SchemaForm<V extends FieldValues, P> = UseFormReturn<V, unknown, P> & {
  /** The API schema the form sends; fields read their limits from it. */
  schema: z.ZodType<P>;
  /** The refusal shown at the top of the form (ProblemSummary), or null. */
  problem: ProblemJson | null;
  /** Shows a server refusal: each field error at its field, the rest in the summary. */
  showProblem: (error: unknown) => void;
  clearProblem: () => void;
};

/**
 * A react-hook-form form bound to an API schema. `values` is what the inputs edit; `toPayload`
 * turns it into the request (defaults to the values themselves) and the submit handler receives
 * the parsed request.
 */
export function useSchemaForm<V extends FieldValues, P>(
  schema: z.ZodType<P>,
  options: {
    defaultValues: DefaultValues<V>;
    toPayload?: (values: V) => unknown;
    /** Where a request path is edited when its form field has another name: `{ expirationDate: "expiresOn" }`. */
    fieldOf?: Record<string, string>;
  },
): SchemaForm<V, P> {
  const [problem, setProblem] = useState<ProblemJson | null>(null);
  const form = useForm<V, unknown, P>({
    defaultValues: options.defaultValues,
    resolver: schemaResolver<V, P>(schema, options.toPayload ?? ((v) => v), options.fieldOf),
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { setError, getValues } = form;
  const showProblem = useCallback(
    (error: unknown) => {
      const found = problemFrom(error);
      setProblem(found);
      const values = getValues();
      for (const issue of found?.errors ?? []) {
        const requestPath = issue.path.replace(/^(body|input|query)\./, "");
        const path = options.fieldOf?.[requestPath] ?? requestPath;
        if (hasPath(values, path))
          setError(path as Path<V>, { type: "server", message: serverFieldTemplate(found?.codeName) });
      }
    },
    [getValues, setError, options.fieldOf],
  );
  const clearProblem = useCallback(() => setProblem(null), []);
  return { ...form, schema, problem, showProblem, clearProblem };
}

function hasPath(values: unknown, path: string): boolean {
  let current: unknown = values;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object" || !(key in current)) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return true;
}
