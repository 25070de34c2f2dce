import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZRevenueReport, ZRevenueReportQuery } from "../../../domain/reports/revenue.ts";
import {
  ZSeatUtilizationReport,
  ZSeatUtilizationReportQuery,
} from "../../../domain/reports/seat-utilization.ts";
import { ZActivationsReport, ZActivationsReportQuery } from "../../../domain/reports/activations.ts";
import {
  ZValueDeliveredReport,
  ZValueDeliveredReportQuery,
} from "../../../domain/reports/value-delivered.ts";

const base = "/api/v1/provision/admin/reports";
const Tag = "Reports";
const errors = [
  "auth.unauthenticated",
  "auth.insufficient_scope",
  "license.validation_error",
  "report.invalid_period",
] as const;
const seriesErrors = [...errors, "report.too_many_buckets"] as const;

export const revenueReportContract = defineContract({
  method: "GET",
  path: `${base}/revenue`,
  tag: Tag,
  summary:
    "Revenue by plan and by product over [from, to) from the plan-assignment history: Absolute plans monthlyPrice × months active per currency, unpriced plans apart; Relative plans as shares of weight × months, unweighted plans apart; trials apart",
  auth: clientScope("report"),
  query: ZRevenueReportQuery,
  response: ZRevenueReport,
  errors,
});

export const revenueCsvContract = defineContract({
  method: "GET",
  path: `${base}/revenue/csv`,
  tag: Tag,
  summary: "The revenue report's lines as CSV (streamed): one per entitlement and plan segment in the period",
  auth: clientScope("report"),
  query: ZRevenueReportQuery,
  responseMediaType: "text/csv",
  errors,
});

export const seatUtilizationReportContract = defineContract({
  method: "GET",
  path: `${base}/seat-utilization`,
  tag: Tag,
  summary:
    "Seat utilisation over time: per day, week or month the most seats held at once against the seats of the licenses in force; the most utilised licenses",
  auth: clientScope("report"),
  query: ZSeatUtilizationReportQuery,
  response: ZSeatUtilizationReport,
  errors: seriesErrors,
});

export const seatUtilizationCsvContract = defineContract({
  method: "GET",
  path: `${base}/seat-utilization/csv`,
  tag: Tag,
  summary: "Every license with sessions in the period, its peak seats against its seats, as CSV (streamed)",
  auth: clientScope("report"),
  query: ZSeatUtilizationReportQuery,
  responseMediaType: "text/csv",
  errors: seriesErrors,
});

export const activationsReportContract = defineContract({
  method: "GET",
  path: `${base}/activations`,
  tag: Tag,
  summary:
    "Activations over time: sessions started per day, week or month, distinct devices and licenses, offline, trial and anonymous-try activations",
  auth: clientScope("report"),
  query: ZActivationsReportQuery,
  response: ZActivationsReport,
  errors: seriesErrors,
});

export const activationsCsvContract = defineContract({
  method: "GET",
  path: `${base}/activations/csv`,
  tag: Tag,
  summary: "Every session started in the period as CSV (streamed), oldest first",
  auth: clientScope("report"),
  query: ZActivationsReportQuery,
  responseMediaType: "text/csv",
  errors: seriesErrors,
});

export const valueDeliveredReportContract = defineContract({
  method: "GET",
  path: `${base}/value-delivered`,
  tag: Tag,
  summary:
    "Value delivered per feature: the usage of each feature catalog entry's metric (consumes and counted usage records) × its valueScore as it is now, per day, week or month; features without a valueScore listed apart",
  auth: clientScope("report"),
  query: ZValueDeliveredReportQuery,
  response: ZValueDeliveredReport,
  errors: seriesErrors,
});

export const valueDeliveredCsvContract = defineContract({
  method: "GET",
  path: `${base}/value-delivered/csv`,
  tag: Tag,
  summary: "Usage and value per feature and interval as CSV (streamed)",
  auth: clientScope("report"),
  query: ZValueDeliveredReportQuery,
  responseMediaType: "text/csv",
  errors: seriesErrors,
});
