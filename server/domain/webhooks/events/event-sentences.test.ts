import { describe, expect, it } from "vitest";
import { eventSentence, eventTypeLabel } from "./event-sentences.ts";

const session = "00000000-0000-4000-8000-000000000004";
const device = "00000000-0000-4000-8000-000000000006";
const names = {
  bySession: new Map([[session, "Review laptop"]]),
  byDevice: new Map([[device, "Build server"]]),
};

describe("eventSentence", () => {
  it("says what happened to a seat or a device, by the device's name", () => {
    expect(eventSentence("Entitlement.SeatActivated", { sessionId: session }, names)).toBe(
      "Seat activated on Review laptop",
    );
    expect(eventSentence("Entitlement.Activated", { sessionId: session }, names)).toBe(
      "License activated on Review laptop",
    );
    expect(eventSentence("Entitlement.SeatReleased", { sessionId: session }, names)).toBe(
      "Seat released on Review laptop",
    );
    expect(eventSentence("Entitlement.DeviceReset", { sessionId: session, transferCount: 2 }, names)).toBe(
      "Review laptop reset (transfer 2)",
    );
    expect(eventSentence("Entitlement.DeviceBlocked", { deviceId: device }, names)).toBe(
      "Build server blocked",
    );
    expect(eventSentence("Entitlement.SeatActivated", { sessionId: device }, names)).toBe(
      "Seat activated on an unnamed device",
    );
  });

  it("words the other events without their type names", () => {
    expect(
      eventSentence("Entitlement.Renewed", { expirationDateTime: "2027-12-12T12:00:00.000Z" }, names),
    ).toBe("Renewal sent: now ends 12 Dec 2027");
    expect(
      eventSentence("Entitlement.PlanChangeReviewed", { approved: false, requestedPlanCode: "PRO" }, names),
    ).toBe("Plan change to PRO declined");
    expect(eventSentence("User.Updated", { changedFields: ["firstName", "email"] }, names)).toBe(
      "Customer user changed: first name, email",
    );
    expect(
      eventSentence(
        "MeteredUsage.OverageStatusChanged",
        { metricName: "api-calls", previousSeverity: "None", severity: "High" },
        names,
      ),
    ).toBe("Overage of api-calls went from none to high");
    expect(
      eventSentence(
        "Webhooks.Subscription.StateChanged",
        { previousState: "Active", state: "Suspended", reason: "ClientRevoked" },
        names,
      ),
    ).toBe("Subscription went from active to suspended because the integration's credential was revoked");
    expect(eventSentence("Something.New", {}, names)).toBe("Event recorded");
  });

  it("names a type in words where the data is not at hand", () => {
    expect(eventTypeLabel("Entitlement.SeatActivated")).toBe("Seat activated");
    expect(eventTypeLabel("Something.New")).toBe("Event");
  });
});
