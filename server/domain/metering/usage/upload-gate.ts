import { AppError } from "../../../core/errors.ts";

/**
 * Bounded concurrency for the entitlement-level usage upload (docs/api.md: 503 possible there): at
 * most `USAGE_UPLOAD_MAX_CONCURRENCY` (default 8) uploads run at once in a process; one more is
 * shed with 503 `usage.overloaded` and `Retry-After` before it touches the database, so a shed
 * batch was not recorded and nothing acknowledged is ever lost. The vendor backend retries it.
 */
let inFlight = 0;

const limit = () => {
  const configured = Number(process.env.USAGE_UPLOAD_MAX_CONCURRENCY);
  return Number.isInteger(configured) && configured > 0 ? configured : 8;
};

export const RETRY_AFTER_SECONDS = 1;

export async function withUploadSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (inFlight >= limit())
    throw new AppError(
      "usage.overloaded",
      `Too many usage uploads are running; retry in ${RETRY_AFTER_SECONDS} s. Nothing of this batch was recorded.`,
      { headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
    );
  inFlight += 1;
  try {
    return await fn();
  } finally {
    inFlight -= 1;
  }
}
