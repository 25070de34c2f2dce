import { z } from "zod";

/** The shapes of Customer 360 (customer-overview.ts): the query and the one answer. */

/** The customer a Customer 360 page is about. */
export const ZCustomerOverviewQuery = z.object({
  kind: z.enum(["User", "Organization"]),
  id: z.string().uuid(),
});

const ZCustomer = z.object({
  kind: z.enum(["User", "Organization"]),
  id: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  externalReference: z.string().nullable(),
  origin: z.string(),
  isBlocked: z.boolean(),
  createdAt: z.string(),
});

export const ZCustomerOverview = z.object({
  customer: ZCustomer,
  entitlements: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      planName: z.string().nullable(),
      expirationDateTime: z.string().nullable(),
      seats: z.number().int(),
      activeSessions: z.number().int(),
      transferCount: z.number().int(),
      billing: z
        .object({
          provider: z.string(),
          mode: z.string(),
          state: z.string(),
          interval: z.string(),
          amount: z.string().nullable(),
          currency: z.string().nullable(),
          currentPeriodEnd: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
  activationCodes: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      entitlementId: z.string(),
      status: z.string(),
      deviceLimit: z.number().int().nullable(),
      createdAt: z.string(),
    }),
  ),
  devices: z.array(
    z.object({
      id: z.string(),
      entitlementId: z.string(),
      deviceName: z.string().nullable(),
      fingerprintHash: z.string(),
      isBlocked: z.boolean(),
      lastSeenAt: z.string().nullable(),
    }),
  ),
  sessions: z.array(
    z.object({
      id: z.string(),
      entitlementId: z.string(),
      deviceName: z.string().nullable(),
      activatedAt: z.string(),
      isActive: z.boolean(),
      revocationReason: z.string(),
      revokedAt: z.string().nullable(),
    }),
  ),
  planHistory: z.array(
    z.object({
      entitlementId: z.string(),
      changedAt: z.string(),
      previousPlanName: z.string().nullable(),
      newPlanName: z.string(),
      source: z.string(),
    }),
  ),
  meters: z.array(
    z.object({
      entitlementId: z.string(),
      metricName: z.string(),
      usage: z.string(),
      periodEnd: z.string().nullable(),
    }),
  ),
  balances: z.array(
    z.object({
      entitlementId: z.string(),
      metricName: z.string(),
      totalCredits: z.string(),
      creditsUsed: z.string(),
      isUnlimitedCredits: z.boolean(),
    }),
  ),
  /** Credits added to the customer's balances, by staff (Deposit) or by the customer (ConsumerGrant). */
  grants: z.array(
    z.object({
      entitlementId: z.string(),
      metricName: z.string(),
      operation: z.string(),
      amount: z.string(),
      actorKind: z.string(),
      actorLabel: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  events: z.array(z.object({ id: z.string(), type: z.string(), entityId: z.string(), time: z.string() })),
  deliveries: z.array(
    z.object({
      id: z.string(),
      eventType: z.string(),
      status: z.string(),
      attemptCount: z.number().int(),
      lastResponseStatus: z.number().int().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type TCustomerOverview = z.infer<typeof ZCustomerOverview>;
