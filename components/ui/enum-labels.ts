import type {
  billingIntervals,
  billingMethods,
  billingModes,
  billingStates,
} from "@/server/domain/entitlements/billing/billing.schemas";
import { formatMoney } from "./format";

/**
 * The API's enum values as staff read them, one map per enum, shared by every page that shows
 * them: "PastDue" reads "Past due", "NotBillable" "Not billable". A value no map knows yet (a
 * newer connector's) is spelled out from its name rather than shown as it is stored.
 */

/** "PastDue" → "Past due", "InvoiceOpen" → "Invoice open". */
export function wordsOf(value: string): string {
  const words = value.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value's label from its enum's map, else its name in words. */
export function enumLabel(
  labels: Readonly<Record<string, string>>,
  value: string | null | undefined,
): string {
  if (!value) return "";
  return labels[value] ?? wordsOf(value);
}

export const billingModeLabels: Record<(typeof billingModes)[number], string> = {
  ProviderManaged: "Billed through the payment provider",
  OperatorManaged: "Billed by your team",
  NotBillable: "Not billable",
  Unknown: "Billing unknown",
};

export const billingStateLabels: Record<(typeof billingStates)[number], string> = {
  Unknown: "Unknown",
  None: "No payment yet",
  Active: "Active",
  Paid: "Paid",
  InvoiceOpen: "Invoice open",
  Trialing: "Trial",
  PastDue: "Past due",
  Paused: "Paused",
  Incomplete: "Incomplete",
  Canceled: "Canceled",
};

export const billingMethodLabels: Record<(typeof billingMethods)[number], string> = {
  Unspecified: "Not specified",
  Subscription: "Subscription",
  OneTime: "One-time payment",
  Invoice: "Invoice",
  Free: "Free",
  Unknown: "Unknown",
};

export const billingIntervalLabels: Record<(typeof billingIntervals)[number], string> = {
  Unspecified: "Not specified",
  Day: "Daily",
  Week: "Weekly",
  Month: "Monthly",
  Year: "Yearly",
  Once: "Once",
  Unknown: "Unknown",
};

/** How often an amount is billed, as the `per` of a price ("EUR 49 /month"); "" when it is not said. */
export const billingIntervalPer: Record<(typeof billingIntervals)[number], string> = {
  Unspecified: "",
  Day: "day",
  Week: "week",
  Month: "month",
  Year: "year",
  Once: "",
  Unknown: "",
};

/** An entitlement's subscription status (set by its offer or its billing record). */
export const subscriptionStatusLabels: Record<string, string> = {
  Pending: "Pending",
  Active: "Active",
  PastDue: "Past due",
  Lapsed: "Lapsed",
  Canceled: "Canceled",
  Paused: "Paused",
  None: "None",
};

/**
 * A billing record in one phrase: "Not billable" when nothing is billed, otherwise its state and
 * who bills it ("Past due · Billed through the payment provider").
 */
export function billingSummary(billing: { mode: string; state: string }): string {
  if (billing.mode === "NotBillable") return billingModeLabels.NotBillable;
  return `${enumLabel(billingStateLabels, billing.state)} · ${enumLabel(billingModeLabels, billing.mode)}`;
}

/** A billed amount with its interval: "EUR 49 /month", "EUR 300 once". */
export function billedAmount(amount: string, currency: string | null, interval: string): string {
  const per = billingIntervalPer[interval as keyof typeof billingIntervalPer] ?? "";
  const money = formatMoney(amount, currency, per ? { per } : {});
  return interval === "Once" ? `${money} once` : money;
}
