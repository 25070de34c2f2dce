import { describe, expect, it } from "vitest";
import type { TSubscriptionResponse } from "@/server/domain/webhooks/subscriptions/subscription.schemas";
import {
  parseEquality,
  subscriptionPayload,
  subscriptionValues,
} from "@/components/webhooks/subscription-form-values";

describe("subscription dialog values", () => {
  it("reads path=value lines, trimming each side; a line without = asks for an empty value", () => {
    expect(parseEquality(" origin = admin \n\nbilling.provider=stripe\nflag")).toEqual({
      origin: "admin",
      "billing.provider": "stripe",
      flag: "",
    });
  });

  it("creates an Http subscription to every event type with no filters", () => {
    const v = { ...subscriptionValues(), displayName: "Billing", url: "https://example.com/hook" };
    expect(subscriptionPayload(v)).toEqual({
      targetKind: "Http",
      displayName: "Billing",
      eventTypePatterns: ["*"],
      filters: null,
      url: "https://example.com/hook",
      callbackScopes: [],
    });
  });

  it("a Capture sends no URL or scopes; picked types and filter lines are sent as lists", () => {
    const v = {
      ...subscriptionValues(),
      targetKind: "Capture" as const,
      displayName: "Inspector",
      url: "ignored",
      all: false,
      types: ["User.Created"],
      entityKinds: "entitlement\n monitored-asset ",
      equality: "origin=admin",
      scopes: ["provision.entitlements.read"],
    };
    expect(subscriptionPayload(v)).toEqual({
      targetKind: "Capture",
      displayName: "Inspector",
      eventTypePatterns: ["User.Created"],
      filters: { entityKinds: ["entitlement", "monitored-asset"], attributeEquality: { origin: "admin" } },
    });
  });

  it("a group of one checkbox gives its value alone, or false when unchecked: both read as lists", () => {
    const one = {
      ...subscriptionValues(),
      displayName: "One",
      all: false,
      types: "User.Created" as unknown as string[],
    };
    expect(subscriptionPayload(one)).toMatchObject({ eventTypePatterns: ["User.Created"] });
    const none = { ...one, scopes: false as unknown as string[] };
    expect(subscriptionPayload(none)).toMatchObject({ callbackScopes: [] });
  });

  it("editing clears filters left empty and carries the revision", () => {
    const subscription = {
      targetKind: "Http",
      displayName: "Billing",
      url: "https://example.com/hook",
      eventTypePatterns: ["Entitlement.Created"],
      filters: { severities: ["High"] },
      callbackScopes: [],
      revisionNumber: 4,
    } as unknown as TSubscriptionResponse;
    const v = subscriptionValues(subscription);
    expect(v).toMatchObject({ all: false, types: ["Entitlement.Created"], severities: "High" });
    v.severities = "";
    expect(subscriptionPayload(v, subscription)).toEqual({
      displayName: "Billing",
      eventTypePatterns: ["Entitlement.Created"],
      url: "https://example.com/hook",
      callbackScopes: [],
      clearFilters: true,
      revisionNumber: 4,
    });
  });
});
