import type { z } from "zod";
import type { DomainContext } from "../context.ts";
import { now } from "../../clock.ts";
import type { TCustomerOverview, ZCustomerOverviewQuery } from "./customer-overview.schemas.ts";
import { readCustomer } from "./overview-customer.ts";

// The back office's customer components name the overview's type through this module.
export type { TCustomerOverview } from "./customer-overview.schemas.ts";

const RECENT = 25;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const dec = (d: { toString(): string } | null | undefined) => (d == null ? null : d.toString());

/**
 * Customer 360 (docs/decisions.md "Operations"): one read of everything the back
 * office shows about a customer user or organization — the licenses assigned to it, their codes,
 * devices, recent sessions, plan history, billing state, meters and credit balances, and the
 * events and webhook deliveries about the customer or its licenses. Actions on the page go
 * through the existing procedures (device reset, code issue, balance deposit).
 */
export async function readCustomerOverview(
  ctx: DomainContext,
  input: z.infer<typeof ZCustomerOverviewQuery>,
): Promise<TCustomerOverview> {
  const customer = await readCustomer(ctx, input.kind, input.id);
  const at = now();
  const entitlements = await ctx.db.entitlement.findMany({
    where: { customerId: input.id },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 100,
  });
  const ids = entitlements.map((e) => e.id);
  const inIds = { entitlementId: { in: ids } };
  const live = { revokedAt: null, seatHeldUntil: { gt: at } };
  const [billing, codes, devices, sessions, live2, history, meters, assets, grants, events] =
    await Promise.all([
      ctx.db.entitlementBilling.findMany({ where: inIds }),
      ctx.db.activationCode.findMany({ where: inIds, orderBy: [{ createdAt: "desc" }], take: RECENT }),
      ctx.db.device.findMany({ where: inIds, orderBy: [{ createdAt: "desc" }], take: RECENT }),
      ctx.db.licenseSession.findMany({ where: inIds, orderBy: [{ activatedAt: "desc" }], take: RECENT }),
      ctx.db.licenseSession.groupBy({
        by: ["entitlementId"],
        where: { ...inIds, ...live },
        _count: { _all: true },
      }),
      ctx.db.entitlementPlanHistory.findMany({
        where: inIds,
        orderBy: [{ changedAt: "desc" }],
        take: RECENT,
      }),
      ctx.db.meterPeriod.findMany({
        where: {
          ...inIds,
          OR: [{ periodEnd: null }, { periodEnd: { gt: at } }],
          AND: [{ OR: [{ periodStart: null }, { periodStart: { lte: at } }] }],
        },
        orderBy: [{ metricName: "asc" }],
        take: 100,
      }),
      ctx.db.monitoredAsset.findMany({
        where: inIds,
        include: { balanceUsages: true },
        orderBy: [{ metricName: "asc" }],
        take: 100,
      }),
      ctx.db.balanceHistoryEntry.findMany({
        where: { ...inIds, operation: { in: ["Deposit", "ConsumerGrant"] } },
        orderBy: [{ createdAt: "desc" }],
        take: RECENT,
      }),
      ctx.db.webhookEnvelope.findMany({
        where: { entityId: { in: [input.id, ...ids] }, isTest: false },
        orderBy: [{ time: "desc" }],
        take: RECENT,
      }),
    ]);
  // Deliveries of those events (WebhookDelivery is indexed by envelope, not by entity).
  const deliveries = await ctx.db.webhookDelivery.findMany({
    where: { envelopeId: { in: events.map((e) => e.id) } },
    orderBy: [{ createdAt: "desc" }],
    take: RECENT,
  });
  const billingOf = new Map(billing.map((b) => [b.entitlementId, b]));
  const liveOf = new Map(live2.map((l) => [l.entitlementId, l._count._all]));
  return {
    customer,
    entitlements: entitlements.map((e) => {
      const b = billingOf.get(e.id);
      const seats = (e.claimBasedActivation as { numberOfSeats?: number } | null)?.numberOfSeats ?? 1;
      return {
        id: e.id,
        name: e.name,
        status: e.status,
        planName: e.planName,
        expirationDateTime: iso(e.expirationDateTime),
        seats,
        activeSessions: liveOf.get(e.id) ?? 0,
        transferCount: e.transferCount,
        billing: b
          ? {
              provider: b.provider,
              mode: b.mode,
              state: b.state,
              interval: b.interval,
              amount: dec(b.amount),
              currency: b.currency,
              currentPeriodEnd: iso(b.currentPeriodEnd),
            }
          : null,
      };
    }),
    activationCodes: codes.map((c) => ({
      id: c.id,
      code: c.code,
      entitlementId: c.entitlementId,
      status: c.status,
      deviceLimit: c.deviceLimit,
      createdAt: c.createdAt.toISOString(),
    })),
    devices: devices.map((d) => ({
      id: d.id,
      entitlementId: d.entitlementId,
      deviceName: d.deviceName,
      fingerprintHash: d.fingerprintHash,
      isBlocked: d.isBlocked,
      lastSeenAt: iso(d.lastSeenAt),
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      entitlementId: s.entitlementId,
      deviceName: s.deviceName,
      activatedAt: s.activatedAt.toISOString(),
      isActive: s.revokedAt === null && s.seatHeldUntil > at,
      revocationReason: s.revocationReason,
      revokedAt: iso(s.revokedAt),
    })),
    planHistory: history.map((h) => ({
      entitlementId: h.entitlementId,
      changedAt: h.changedAt.toISOString(),
      previousPlanName: h.previousPlanName,
      newPlanName: h.newPlanName,
      source: h.source,
    })),
    meters: meters.map((m) => ({
      entitlementId: m.entitlementId,
      metricName: m.metricName,
      usage: m.usage.toString(),
      periodEnd: iso(m.periodEnd),
    })),
    balances: assets.flatMap((a) =>
      a.balanceUsages.map((b) => ({
        entitlementId: a.entitlementId ?? "",
        metricName: a.metricName,
        totalCredits: b.totalCredits.toString(),
        creditsUsed: b.creditsUsed.toString(),
        isUnlimitedCredits: b.isUnlimitedCredits,
      })),
    ),
    grants: grants.map((g) => ({
      entitlementId: g.entitlementId,
      metricName: g.metricName,
      operation: g.operation,
      amount: g.amount.toString(),
      actorKind: g.actorKind,
      actorLabel: g.actorLabel,
      createdAt: g.createdAt.toISOString(),
    })),
    events: events.map((e) => ({ id: e.id, type: e.type, entityId: e.entityId, time: e.time.toISOString() })),
    deliveries: deliveries.map((d) => ({
      id: d.id,
      eventType: d.eventType,
      status: d.status,
      attemptCount: d.attemptCount,
      lastResponseStatus: d.lastResponseStatus,
      createdAt: d.createdAt.toISOString(),
    })),
  };
}
