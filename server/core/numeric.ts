import { z } from "zod";

/**
 * Money and credit columns are numeric(24,6): they hold magnitudes below 10^18, and a larger
 * value fails its INSERT or UPDATE. Inputs are bounded here, on write, so they answer 400.
 */
export const NUMERIC_24_6_LIMIT = 1e18;

/** A finite number a numeric(24,6) column can hold. */
export const ZNumeric24_6 = (what: string) =>
  z
    .number({ error: `${what} is a number.` })
    .finite()
    .gt(-NUMERIC_24_6_LIMIT, `${what} must be greater than -10^18.`)
    .lt(NUMERIC_24_6_LIMIT, `${what} must be less than 10^18.`);
