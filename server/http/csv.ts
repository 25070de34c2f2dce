import type { DomainContext } from "../domain/context.ts";
import type { CsvValue, PreparedExport } from "../domain/reports/report-export.ts";

/** A cell a spreadsheet would run as a formula (OWASP "CSV injection"), unless it is a plain number. */
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** One RFC 4180 field: quoted when it holds a comma, quote or line break; formulas defused with a leading '. */
export function csvField(value: CsvValue): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: CsvValue[]) => `${values.map(csvField).join(",")}\r\n`;

/**
 * A report's CSV as a streamed download: the header, then each batch of rows written as the
 * cursor reads it (nothing but one batch is held in memory). The first batch is read before the
 * response starts, so a query that fails answers a problem instead of a cut-off file; a client
 * that goes away ends the cursor and frees its connection.
 */
export async function csvResponse(
  ctx: DomainContext,
  prepared: PreparedExport,
  headers: Record<string, string> = {},
): Promise<Response> {
  const batches = prepared.rows(ctx);
  const first = await batches.next();
  const encoder = new TextEncoder();
  const encode = (rows: Record<string, CsvValue>[]) =>
    encoder.encode(rows.map((row) => csvLine(prepared.columns.map((c) => row[c] ?? null))).join(""));
  let pending: Record<string, CsvValue>[] | null = first.done ? null : first.value;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine([...prepared.columns])));
    },
    async pull(controller) {
      if (pending) {
        controller.enqueue(encode(pending));
        pending = null;
        return;
      }
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encode(next.value));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${prepared.filename}"`,
      "cache-control": "no-store",
    },
  });
}
