import type { EntitlementBilling } from "../../../db/generated/client.ts";

/** How long a subscription may stay past due before the payment lapse applies (docs/decisions.md). */
export const LAPSE_AFTER_PAST_DUE_DAYS = 14;
const DAY_MS = 86_400_000;

type LapseFields = Pick<
  EntitlementBilling,
  "mode" | "state" | "pastDueSince" | "lapsedPendingSince" | "lapsedAt" | "currentPeriodEnd"
>;

const settled = new Set(["Active", "Paid", "Trialing"]);
const overdue = new Set(["PastDue", "Incomplete"]);

/**
 * The lapse rules (docs/decisions.md "Offers, entitlements, plans, billing, add-on grants"), a pure function of the record after a
 * provider reports `state` at `observedAt`:
 * 1. Active, Paid or Trialing is a payment: the past-due episode ends and any lapse is lifted.
 * 2. PastDue or Incomplete opens a past-due episode (pastDueSince, kept while it lasts); once it has
 *    lasted LAPSE_AFTER_PAST_DUE_DAYS the lapse applies.
 * 3. Canceled lapses once the paid period is over (currentPeriodEnd null or passed).
 * 4. Other states (None, InvoiceOpen, Paused, unknown ones) change nothing.
 * A lapse that applies while the operator manages the plan by hand (mode OperatorManaged: another
 * plan override stands) is recorded as lapsedPendingSince instead of lapsedAt.
 */
export function applyLapseRules(
  record: LapseFields,
  state: string,
  observedAt: Date,
): Pick<EntitlementBilling, "pastDueSince" | "lapsedPendingSince" | "lapsedAt"> {
  let { pastDueSince, lapsedPendingSince, lapsedAt } = record;
  let lapses = false;
  if (settled.has(state)) {
    return { pastDueSince: null, lapsedPendingSince: null, lapsedAt: null };
  }
  if (overdue.has(state)) {
    pastDueSince ??= observedAt;
    lapses = observedAt.getTime() - pastDueSince.getTime() >= LAPSE_AFTER_PAST_DUE_DAYS * DAY_MS;
  } else if (state === "Canceled") {
    lapses = !record.currentPeriodEnd || record.currentPeriodEnd.getTime() <= observedAt.getTime();
  }
  if (lapses && !lapsedAt && !lapsedPendingSince) {
    if (record.mode === "OperatorManaged") lapsedPendingSince = observedAt;
    else lapsedAt = observedAt;
  }
  return { pastDueSince, lapsedPendingSince, lapsedAt };
}

/**
 * An operator's mode change moves a recorded lapse: leaving OperatorManaged applies a pending
 * lapse now; entering it lifts an applied one back to pending (the operator's plan stands).
 */
export function applyModeChange(
  record: Pick<EntitlementBilling, "lapsedPendingSince" | "lapsedAt">,
  fromMode: string,
  toMode: string,
  at: Date,
) {
  if (fromMode === "OperatorManaged" && toMode !== "OperatorManaged" && record.lapsedPendingSince) {
    return { lapsedPendingSince: null, lapsedAt: at };
  }
  if (fromMode !== "OperatorManaged" && toMode === "OperatorManaged" && record.lapsedAt) {
    return { lapsedPendingSince: record.lapsedAt, lapsedAt: null };
  }
  return { lapsedPendingSince: record.lapsedPendingSince, lapsedAt: record.lapsedAt };
}

/** The entitlement's subscriptionStatus a billing record implies (null: leave it as it is). */
export function subscriptionStatusFor(record: Pick<EntitlementBilling, "state" | "lapsedAt">): string | null {
  if (record.lapsedAt) return "Lapsed";
  if (settled.has(record.state)) return "Active";
  if (overdue.has(record.state)) return "PastDue";
  if (record.state === "Canceled") return "Canceled";
  if (record.state === "Paused") return "Paused";
  return null;
}
