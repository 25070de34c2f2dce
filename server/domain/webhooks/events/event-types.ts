import { z } from "zod";
import * as d from "./event-data.schemas.ts";

/**
 * The event-type registry: every type of docs/api.md "Event types and data" with its data schema,
 * entity kind, eventversion, the field paths a filter may name, and a sample payload with fixed
 * placeholder ids (test-fire and `GET /api/v1/webhooks/schemas` use it).
 */

export const REGISTRATION_CHALLENGE = "Webhooks.Registration.Challenge";
export const SUBSCRIPTION_STATE_CHANGED = "Webhooks.Subscription.StateChanged";

export type EventTypeDefinition = {
  type: string;
  emittedWhen: string;
  entityKind: string;
  eventVersion: number;
  dataSchema: z.ZodObject;
  /** Dot-joined paths of the scalar fields of `data`: what `filters.attributeEquality` can match. */
  fieldPaths: readonly string[];
  /** Whether the event carries an overage severity (the `severities` filter). */
  hasSeverity: boolean;
  /** False for the registration challenge: never a subscription's pattern, never test-fired. */
  subscribable: boolean;
  sample: { entityId: string; subject: string; data: Record<string, unknown> };
};

/** Fixed placeholder ids of the sample payloads (docs/api.md: "Sample payloads use fixed placeholder ids"). */
export const placeholder = {
  tenant: "00000000-0000-4000-8000-000000000000",
  entitlement: "00000000-0000-4000-8000-000000000001",
  planSet: "00000000-0000-4000-8000-000000000002",
  customer: "00000000-0000-4000-8000-000000000003",
  session: "00000000-0000-4000-8000-000000000004",
  product: "00000000-0000-4000-8000-000000000005",
  device: "00000000-0000-4000-8000-000000000006",
  user: "00000000-0000-4000-8000-000000000007",
  organization: "00000000-0000-4000-8000-000000000008",
  parentOrganization: "00000000-0000-4000-8000-000000000009",
  monitoredAsset: "00000000-0000-4000-8000-00000000000a",
  planChangeRequest: "00000000-0000-4000-8000-00000000000b",
  subscription: "00000000-0000-4000-8000-00000000000c",
  envelope: "00000000-0000-4000-8000-00000000000d",
} as const;

const sampleTime = "2026-01-01T12:00:00.000Z";
const sampleFingerprintHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

const routingKeys = {
  entitlementId: placeholder.entitlement,
  planCode: "PRO",
  reference: "PO-1001",
  externalReference: "crm-ent-42",
  customerId: placeholder.customer,
  customerExternalReference: "crm-cust-7",
  planSetId: placeholder.planSet,
  billing: {
    provider: "stripe",
    providerSubscriptionReference: "sub_123",
    providerCustomerReference: "cus_123",
  },
};
const seat = {
  ...routingKeys,
  sessionId: placeholder.session,
  deviceFingerprintHash: sampleFingerprintHash,
  productIds: [placeholder.product],
};
const device = { ...routingKeys, deviceId: placeholder.device, deviceFingerprintHash: sampleFingerprintHash };
const user = {
  id: placeholder.user,
  externalReference: "crm-user-9",
  origin: "admin",
  userType: "Consumer",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  roles: ["LicenseConsumer"],
  organizationIds: [placeholder.organization],
  isApproved: true,
  isBlocked: false,
};
const organization = {
  id: placeholder.organization,
  externalReference: "crm-org-3",
  origin: "admin",
  parentId: placeholder.parentOrganization,
  organizationType: "Customer",
  name: "Example Corp",
  emailDomain: "example.com",
  country: "DE",
};
const entitlementSubject = `entitlements/${placeholder.entitlement}`;

type Entry = Omit<EventTypeDefinition, "fieldPaths" | "hasSeverity" | "eventVersion" | "subscribable"> & {
  eventVersion?: number;
};

const entries: Entry[] = [
  {
    type: "Entitlement.Activated",
    emittedWhen: "an entitlement is activated",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementActivatedData,
    sample: { entityId: placeholder.entitlement, subject: entitlementSubject, data: routingKeys },
  },
  {
    type: "Entitlement.PlanChangeReviewed",
    emittedWhen: "a plan-change request is reviewed",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementPlanChangeReviewedData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: {
        ...routingKeys,
        planChangeRequestId: placeholder.planChangeRequest,
        approved: true,
        requestedPlanCode: "ENTERPRISE",
        reviewedAtUtc: sampleTime,
      },
    },
  },
  {
    type: "Entitlement.SeatActivated",
    emittedWhen: "a seat is taken",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementSeatActivatedData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: { ...seat, activatedAtUtc: sampleTime },
    },
  },
  {
    type: "Entitlement.SeatReleased",
    emittedWhen: "a seat is released, or its device is reset or blocked",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementSeatReleasedData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: { ...seat, releasedAtUtc: sampleTime },
    },
  },
  {
    type: "Entitlement.DeviceReset",
    emittedWhen: "a device is reset; one event per session reset",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementDeviceResetData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: { ...seat, resetAtUtc: sampleTime, transferCount: 1 },
    },
  },
  {
    type: "Entitlement.Renewed",
    emittedWhen: "an entitlement's validity is extended (operational renew)",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementRenewedData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: {
        ...routingKeys,
        previousExpirationDateTime: "2026-01-31T00:00:00.000Z",
        expirationDateTime: "2027-01-31T00:00:00.000Z",
        renewedAtUtc: sampleTime,
      },
    },
  },
  {
    type: "Entitlement.DeviceBlocked",
    emittedWhen: "a device is blocked",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementDeviceBlockedData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: { ...device, blockedAtUtc: sampleTime },
    },
  },
  {
    type: "Entitlement.DeviceUnblocked",
    emittedWhen: "a block is lifted",
    entityKind: "entitlement",
    dataSchema: d.ZEntitlementDeviceUnblockedData,
    sample: {
      entityId: placeholder.entitlement,
      subject: entitlementSubject,
      data: { ...device, unblockedAtUtc: sampleTime },
    },
  },
  {
    type: "User.Created",
    emittedWhen: "a customer user is created",
    entityKind: "user",
    dataSchema: d.ZUserCreatedData,
    sample: { entityId: placeholder.user, subject: `users/${placeholder.user}`, data: user },
  },
  {
    type: "User.Updated",
    emittedWhen: "a customer user is changed",
    entityKind: "user",
    dataSchema: d.ZUserUpdatedData,
    sample: {
      entityId: placeholder.user,
      subject: `users/${placeholder.user}`,
      data: { ...user, changedFields: ["lastName"] },
    },
  },
  {
    type: "User.Deleted",
    emittedWhen: "a customer user is removed",
    entityKind: "user",
    dataSchema: d.ZUserDeletedData,
    sample: {
      entityId: placeholder.user,
      subject: `users/${placeholder.user}`,
      data: {
        userId: placeholder.user,
        externalReference: "crm-user-9",
        origin: "admin",
        userType: "Consumer",
      },
    },
  },
  {
    type: "Organization.Created",
    emittedWhen: "an organization is created",
    entityKind: "organization",
    dataSchema: d.ZOrganizationCreatedData,
    sample: {
      entityId: placeholder.organization,
      subject: `organizations/${placeholder.organization}`,
      data: organization,
    },
  },
  {
    type: "Organization.Updated",
    emittedWhen: "an organization is changed",
    entityKind: "organization",
    dataSchema: d.ZOrganizationUpdatedData,
    sample: {
      entityId: placeholder.organization,
      subject: `organizations/${placeholder.organization}`,
      data: { ...organization, changedFields: ["name"] },
    },
  },
  {
    type: "Organization.Deleted",
    emittedWhen: "an organization is removed",
    entityKind: "organization",
    dataSchema: d.ZOrganizationDeletedData,
    sample: {
      entityId: placeholder.organization,
      subject: `organizations/${placeholder.organization}`,
      data: { organizationId: placeholder.organization, externalReference: "crm-org-3", origin: "admin" },
    },
  },
  {
    type: "MeteredUsage.OverageStatusChanged",
    emittedWhen: "overage severity changes",
    entityKind: "monitored-asset",
    dataSchema: d.ZMeteredUsageOverageStatusChangedData,
    sample: {
      entityId: placeholder.monitoredAsset,
      subject: `monitored-assets/${placeholder.monitoredAsset}`,
      data: {
        ...routingKeys,
        monitoredAssetId: placeholder.monitoredAsset,
        metricName: "api-calls",
        usageKind: "Metered",
        previousSeverity: "None",
        severity: "High",
        tierName: "Overage",
        usage: 1000,
        limit: 1000,
        changedAtUtc: sampleTime,
        periodKey: "month:2026-01-01T00:00:00.000Z",
        periodStart: "2026-01-01T00:00:00.000Z",
        periodEnd: "2026-02-01T00:00:00.000Z",
      },
    },
  },
  {
    type: SUBSCRIPTION_STATE_CHANGED,
    emittedWhen:
      "the service changes a subscription's state itself (its integration's credential is revoked)",
    entityKind: "subscription",
    dataSchema: d.ZSubscriptionStateChangedData,
    sample: {
      entityId: placeholder.subscription,
      subject: `subscriptions/${placeholder.subscription}`,
      data: {
        subscriptionId: placeholder.subscription,
        displayName: "CRM sync",
        previousState: "Active",
        state: "Disabled",
        reason: "ClientRevoked",
        ownerClientId: "ci_0123456789abcdef",
        changedAtUtc: sampleTime,
      },
    },
  },
  {
    type: REGISTRATION_CHALLENGE,
    emittedWhen: "verification",
    entityKind: "subscription",
    dataSchema: d.ZRegistrationChallengeData,
    sample: {
      entityId: placeholder.subscription,
      subject: `subscriptions/${placeholder.subscription}`,
      data: { challenge: "Xq3k9Vd0bH1cP8sLm2Zr7TfWy4NaGu6E" },
    },
  },
];

/** Dot-joined paths of the string, number and boolean leaves of an object schema (arrays and records never match). */
export function scalarFieldPaths(schema: z.ZodType, prefix = ""): string[] {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
    inner = (inner as z.ZodOptional<z.ZodType>).unwrap();
  }
  if (inner instanceof z.ZodObject) {
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
      scalarFieldPaths(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  const scalar =
    inner instanceof z.ZodString ||
    inner instanceof z.ZodNumber ||
    inner instanceof z.ZodBoolean ||
    inner instanceof z.ZodEnum ||
    inner instanceof z.ZodLiteral;
  return scalar && prefix ? [prefix] : [];
}

export const eventTypes: readonly EventTypeDefinition[] = entries.map((entry) => {
  const fieldPaths = scalarFieldPaths(entry.dataSchema);
  return {
    ...entry,
    eventVersion: entry.eventVersion ?? 1,
    fieldPaths,
    hasSeverity: fieldPaths.includes("severity"),
    subscribable: entry.type !== REGISTRATION_CHALLENGE,
  };
});

const byType = new Map(eventTypes.map((t) => [t.type, t]));

export function findEventType(type: string): EventTypeDefinition | undefined {
  return byType.get(type);
}

/** Every type a subscription can name (all but the registration challenge). */
export const subscribableEventTypes: readonly EventTypeDefinition[] = eventTypes.filter(
  (t) => t.subscribable,
);
