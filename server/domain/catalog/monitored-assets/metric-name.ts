import { z } from "zod";

/**
 * docs/api.md: a metric name is lowercase and the meter is resolved by exact, case-sensitive match on
 * it, never by feature code. A name with capitals is refused rather than lowered, so the name a
 * client reports under is exactly the one stored (and a feature code such as `API_CALLS` cannot
 * pass for `api_calls`).
 */
export const METRIC_NAME_PATTERN = /^[a-z0-9][a-z0-9_.:-]*$/;

export const metricNameProblem = (value: string): string | null =>
  value !== value.toLowerCase()
    ? "A metric name is lowercase (it is matched case-sensitively; a feature code is not accepted in its place)."
    : METRIC_NAME_PATTERN.test(value)
      ? null
      : "A metric name starts with a letter or digit and holds only a-z, 0-9, '_', '.', ':' and '-'.";

export const ZMetricName = z
  .string()
  .trim()
  .min(1, "A metric name cannot be empty.")
  .max(100)
  .superRefine((value, ctx) => {
    const problem = metricNameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
