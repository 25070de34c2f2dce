import { AppError } from "../../../core/errors.ts";
import type { TSubscriptionState } from "./subscription.schemas.ts";

/**
 * docs/api.md "States and transitions", the subscription rows, as one pure function:
 * - enable: Disabled → Active (already Active: unchanged); 409 while PendingVerification.
 * - disable: Active → Disabled (already Disabled: unchanged); 409 while PendingVerification.
 * - verified: PendingVerification → Active (also when it had been disabled before a new URL).
 * - urlChanged: any → PendingVerification.
 * - suspend / resume (tenant admin only; docs/api.md leaves them open, docs/decisions.md): suspend
 *   remembers the state it interrupts and resume returns to it. While Suspended, enable, disable
 *   and verify answer 409, and a new URL makes the remembered state PendingVerification, so an
 *   integrator cannot lift a suspension by editing its subscription.
 */
export type SubscriptionTrigger = "enable" | "disable" | "verified" | "urlChanged" | "suspend" | "resume";

export type StateSnapshot = { state: TSubscriptionState; resumeState: TSubscriptionState | null };

const invalidState = (detail: string) => new AppError("subscription.invalid_state", detail);

export function transition(current: StateSnapshot, trigger: SubscriptionTrigger): StateSnapshot {
  const { state } = current;
  switch (trigger) {
    case "enable":
    case "disable": {
      if (state === "PendingVerification")
        throw invalidState(
          `A subscription in PendingVerification can only be verified or deleted; ${trigger} is refused.`,
        );
      if (state === "Suspended")
        throw invalidState(
          `The subscription is Suspended by the tenant administrator; ${trigger} is refused.`,
        );
      return { state: trigger === "enable" ? "Active" : "Disabled", resumeState: null };
    }
    case "verified":
      if (state === "Suspended")
        throw invalidState("The subscription is Suspended by the tenant administrator; verify is refused.");
      return state === "PendingVerification" ? { state: "Active", resumeState: null } : current;
    case "urlChanged":
      return state === "Suspended"
        ? { state, resumeState: "PendingVerification" }
        : { state: "PendingVerification", resumeState: null };
    case "suspend":
      return state === "Suspended" ? current : { state: "Suspended", resumeState: state };
    case "resume":
      return state === "Suspended" ? { state: current.resumeState ?? "Active", resumeState: null } : current;
  }
}

/** docs/api.md: deliveries go only to Active subscriptions. */
export const takesDeliveries = (state: string) => state === "Active";
