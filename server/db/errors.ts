/** Whether a Prisma error is a unique-constraint violation (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** Whether a Prisma error says the row to update or delete does not exist (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}

/** Whether PostgreSQL aborted the transaction to break a deadlock or a serialization conflict. */
export function isTransactionConflict(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "P2034" || code === "40P01" || code === "40001";
}

/**
 * Runs a transaction again when PostgreSQL chose it as a deadlock or serialization victim: the
 * documented remedy, since the other transaction has gone on and a retry finds the rows free.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt * Math.random()));
    }
  }
}
