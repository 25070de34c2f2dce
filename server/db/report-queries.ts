import { pgPool } from "./pool.ts";

/**
 * Memory a report statement may sort and hash in before spilling to disk: the default 4 MB sends
 * a 100,000-license report's sorts to temporary files (about twice as slow, see the reports bench).
 * Set per transaction, so it applies to report statements only.
 */
export const REPORT_WORK_MEM = "SET LOCAL work_mem = '32MB'";

/**
 * Runs one read-only report statement (module-level text with `$n` parameters, the tenant filter
 * in the text) on a connection of its own with the report's work_mem, outside Prisma's interactive
 * transactions: their 15 s limit turned a long report into a 500 (docs/performance.md "Seat
 * utilisation at 200,000 sessions"). Columns are read as pg reads them, so the statements cast
 * counts to int and amounts to text; timestamptz columns arrive as Dates.
 */
export async function queryReport<T>(text: string, values: unknown[]): Promise<T[]> {
  const client = await pgPool().connect();
  let open = false;
  try {
    await client.query("BEGIN READ ONLY");
    open = true;
    await client.query(REPORT_WORK_MEM);
    const { rows } = await client.query<T & object>({ text, values });
    await client.query("COMMIT");
    open = false;
    return rows;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    client.release();
  }
}

/**
 * Streams the rows of one read-only query in batches through a server-side cursor, so an export
 * of a hundred thousand rows never sits in memory: the caller asks for the next batch when it has
 * written the last one. The query runs in a REPEATABLE READ READ ONLY transaction (one consistent
 * snapshot from first row to last) on a connection of its own, released when the iteration ends,
 * fails or is abandoned (the generator's `return`). The SQL text must filter by tenant itself and
 * take every value as a parameter.
 */
export async function* streamRows<T>(text: string, values: unknown[], batchSize = 1000): AsyncGenerator<T[]> {
  const client = await pgPool().connect();
  let open = false;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    open = true;
    await client.query(REPORT_WORK_MEM);
    await client.query({ text: `DECLARE report_rows NO SCROLL CURSOR FOR ${text}`, values });
    for (;;) {
      const { rows } = await client.query<T & object>(`FETCH ${batchSize} FROM report_rows`);
      if (rows.length) yield rows;
      if (rows.length < batchSize) break;
    }
    await client.query("COMMIT");
    open = false;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => undefined);
    client.release();
  }
}
