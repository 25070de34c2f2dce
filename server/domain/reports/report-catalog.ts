import { activationsExport } from "./activations.ts";
import type { CsvExport } from "./report-export.ts";
import { revenueExport } from "./revenue.ts";
import { mrrExport } from "./revenue-over-time.ts";
import { seatUtilizationExport } from "./seat-utilization.ts";
import { valueDeliveredExport } from "./value-delivered.ts";

/**
 * The reports area: one file per report, each exporting its JSON report function and its CSV
 * export. A new report is one more file here and one more entry below; the transports list it
 * beside the others.
 */
export const reportExports = {
  revenue: revenueExport,
  mrr: mrrExport,
  "seat-utilization": seatUtilizationExport,
  activations: activationsExport,
  "value-delivered": valueDeliveredExport,
} as const satisfies Record<string, CsvExport>;

export type ReportKey = keyof typeof reportExports;
export const reportKeys = Object.keys(reportExports) as ReportKey[];
