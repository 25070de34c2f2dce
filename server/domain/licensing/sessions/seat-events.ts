import type { LicenseSession } from "../../../db/generated/client.ts";
import type { z } from "zod";
import type { OutboxEventInput } from "../../webhooks/events/emit-event.ts";
import type { ZEntitlementRoutingKeys } from "../../webhooks/events/event-data.schemas.ts";

type RoutingKeys = z.infer<typeof ZEntitlementRoutingKeys>;

/**
 * The events of a seat taken (docs/api.md "Event types and data"): `Entitlement.SeatActivated`, and
 * `Entitlement.Activated` before it when the session is new.
 */
export function seatActivatedEvents(
  tenantId: string,
  keys: RoutingKeys,
  session: Pick<LicenseSession, "id" | "entitlementId" | "productIds">,
  deviceFingerprintHash: string,
  at: Date,
  created: boolean,
): OutboxEventInput[] {
  const base = {
    tenantId,
    entityKind: "entitlement",
    entityId: session.entitlementId,
    subject: `entitlements/${session.entitlementId}`,
  };
  const seat = {
    ...base,
    type: "Entitlement.SeatActivated",
    data: {
      ...keys,
      sessionId: session.id,
      deviceFingerprintHash,
      productIds: session.productIds,
      activatedAtUtc: at.toISOString(),
    },
  };
  return created
    ? [
        {
          ...base,
          type: "Entitlement.Activated",
          data: { ...keys, sessionId: session.id, deviceFingerprintHash },
        },
        seat,
      ]
    : [seat];
}

/** `Entitlement.SeatReleased` for each ended session (a release, a reset or a block: docs/api.md "States and transitions"). */
export function seatReleasedEvents(
  tenantId: string,
  keys: RoutingKeys,
  sessions: readonly { id: string; productIds: string[]; fingerprintHash: string }[],
  at: Date,
): OutboxEventInput[] {
  return sessions.map((s) => ({
    tenantId,
    type: "Entitlement.SeatReleased",
    entityKind: "entitlement",
    entityId: keys.entitlementId,
    subject: `entitlements/${keys.entitlementId}`,
    data: {
      ...keys,
      sessionId: s.id,
      deviceFingerprintHash: s.fingerprintHash,
      productIds: s.productIds,
      releasedAtUtc: at.toISOString(),
    },
  }));
}
