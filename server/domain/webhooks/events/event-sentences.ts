import { formatDate, formatQuantity } from "../../../core/format.ts";

/**
 * What a device is called in a sentence, looked up by the caller: by the session an event names
 * (seat events) or by the device itself (block events). Absent: the device has no name (or is gone).
 */
export type EventDeviceNames = { bySession: Map<string, string>; byDevice: Map<string, string> };

/** "firstName" → "first name", "PastDue" → "past due". */
const words = (field: string) => field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

const text = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);
const day = (v: unknown) =>
  text(v) && !Number.isNaN(Date.parse(v as string)) ? formatDate(v as string) : null;

function deviceOf(data: Record<string, unknown>, names: EventDeviceNames): string {
  const name =
    names.bySession.get(text(data.sessionId) ?? "") ?? names.byDevice.get(text(data.deviceId) ?? "");
  return name ?? "an unnamed device";
}

function changedFields(data: Record<string, unknown>): string {
  const fields = Array.isArray(data.changedFields)
    ? data.changedFields.filter((f) => typeof f === "string")
    : [];
  return fields.length ? `: ${fields.map((f) => words(f)).join(", ")}` : "";
}

const severity = (v: unknown) => (text(v) ? words(v as string) : "unknown");

/**
 * One domain event (an outbox envelope's type and data) as staff say it on a History tab: "Seat
 * activated on Review laptop", never the event type's name. A type added to the registry later and
 * not worded here yet reads "Event recorded" rather than its type's name.
 */
export function eventSentence(type: string, data: Record<string, unknown>, names: EventDeviceNames): string {
  switch (type) {
    case "Entitlement.Activated":
      return `License activated on ${deviceOf(data, names)}`;
    case "Entitlement.SeatActivated":
      return `Seat activated on ${deviceOf(data, names)}`;
    case "Entitlement.SeatReleased":
      return `Seat released on ${deviceOf(data, names)}`;
    case "Entitlement.DeviceReset": {
      const transfers = typeof data.transferCount === "number" ? data.transferCount : null;
      return `${deviceOf(data, names)} reset${transfers === null ? "" : ` (transfer ${formatQuantity(transfers)})`}`;
    }
    case "Entitlement.DeviceBlocked":
      return `${deviceOf(data, names)} blocked`;
    case "Entitlement.DeviceUnblocked":
      return `${deviceOf(data, names)} unblocked`;
    case "Entitlement.Renewed": {
      const until = day(data.expirationDateTime);
      return until ? `Renewal sent: now ends ${until}` : "Renewal sent";
    }
    case "Entitlement.PlanChangeReviewed": {
      const plan = text(data.requestedPlanCode) ?? "another plan";
      return `Plan change to ${plan} ${data.approved === true ? "approved" : "declined"}`;
    }
    case "User.Created":
      return "Customer user created";
    case "User.Updated":
      return `Customer user changed${changedFields(data)}`;
    case "User.Deleted":
      return "Customer user removed";
    case "Organization.Created":
      return "Organization created";
    case "Organization.Updated":
      return `Organization changed${changedFields(data)}`;
    case "Organization.Deleted":
      return "Organization removed";
    case "MeteredUsage.OverageStatusChanged":
      return `Overage of ${text(data.metricName) ?? "a metric"} went from ${severity(data.previousSeverity)} to ${severity(data.severity)}`;
    case "Webhooks.Subscription.StateChanged": {
      const why = data.reason === "ClientRevoked" ? " because the integration's credential was revoked" : "";
      return `Subscription went from ${severity(data.previousState)} to ${severity(data.state)}${why}`;
    }
    default:
      return "Event recorded";
  }
}

const typeLabels: Record<string, string> = {
  "Entitlement.Activated": "License activated",
  "Entitlement.SeatActivated": "Seat activated",
  "Entitlement.SeatReleased": "Seat released",
  "Entitlement.DeviceReset": "Device reset",
  "Entitlement.DeviceBlocked": "Device blocked",
  "Entitlement.DeviceUnblocked": "Device unblocked",
  "Entitlement.Renewed": "License renewed",
  "Entitlement.PlanChangeReviewed": "Plan change reviewed",
  "User.Created": "Customer user created",
  "User.Updated": "Customer user changed",
  "User.Deleted": "Customer user removed",
  "Organization.Created": "Organization created",
  "Organization.Updated": "Organization changed",
  "Organization.Deleted": "Organization removed",
  "MeteredUsage.OverageStatusChanged": "Overage level changed",
  "Webhooks.Subscription.StateChanged": "Subscription state changed",
  "Webhooks.Registration.Challenge": "Subscription verification",
};

/** An event type as a list names it where the event's data is not at hand: "Seat activated". */
export const eventTypeLabel = (type: string): string => typeLabels[type] ?? "Event";
