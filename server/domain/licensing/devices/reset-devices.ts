import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { emitEvent } from "../../webhooks/events/emit-event.ts";
import type { TDeviceResetResult } from "./device.schemas.ts";
import { entitlementRoutingKeys } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import { emitSeatReleased, revokeSessions } from "./end-device-sessions.ts";
import { lockEntitlementRow } from "../../entitlements/entitlement/entitlement-lock.ts";

/**
 * POST /operational/entitlements/{id}/devices/reset (or, from the back office's fleet of devices,
 * "deactivate" one device: `only` limits the reset to that device's sessions; it counts as a
 * transfer all the same, since the seat may now move to another machine) (docs/api.md "States and transitions", Session
 * row): every unrevoked session ends at its next contact and frees its seat, the activation
 * codes' device usage empties (it counts unrevoked sessions), transferCount goes up by one, and
 * each ended session emits `Entitlement.DeviceReset` (with the total transferCount after the
 * reset) and `Entitlement.SeatReleased`. A reset with no session still counts as a transfer.
 */
export async function resetDevices(
  ctx: DomainContext,
  entitlementId: string,
  only?: { deviceId: string },
): Promise<TDeviceResetResult> {
  return inTransaction(ctx.db, async (tx) => {
    await lockEntitlementRow(tx, ctx.tenantId, entitlementId);
    if (
      only &&
      !(await tx.device.findFirst({ where: { id: only.deviceId, entitlementId }, select: { id: true } }))
    )
      throw notFound("Device");
    const at = now();
    const ended = await revokeSessions(tx, { entitlementId, deviceId: only?.deviceId }, "DeviceReset", at);
    const { transferCount } = await tx.entitlement.update({
      where: { id: entitlementId },
      data: { transferCount: { increment: 1 } },
      select: { transferCount: true },
    });
    const keys = await entitlementRoutingKeys(tx, entitlementId);
    for (const s of ended) {
      await emitEvent(tx, {
        tenantId: ctx.tenantId,
        type: "Entitlement.DeviceReset",
        entityKind: "entitlement",
        entityId: entitlementId,
        subject: `entitlements/${entitlementId}`,
        data: {
          ...keys,
          sessionId: s.id,
          deviceFingerprintHash: s.fingerprintHash,
          productIds: s.productIds,
          resetAtUtc: at.toISOString(),
          transferCount,
        },
      });
    }
    await emitSeatReleased(tx, ctx.tenantId, keys, ended, at);
    return { entitlementId, devicesReset: ended.length, transferCount, error: null };
  });
}

/**
 * POST /operational/entitlements/devices/reset: one result per requested id, in order (duplicates
 * reset once); an id that is unknown, foreign or not a UUID gets `error` and changes nothing.
 * Each entitlement resets in its own transaction unless the caller's (idempotent) transaction wraps them.
 */
export async function resetDevicesBulk(
  ctx: DomainContext,
  entitlementIds: string[],
): Promise<TDeviceResetResult[]> {
  const results: TDeviceResetResult[] = [];
  const seen = new Map<string, TDeviceResetResult>();
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  for (const raw of entitlementIds) {
    const id = raw.toLowerCase();
    const done = seen.get(id);
    if (done) {
      results.push({ ...done, entitlementId: raw });
      continue;
    }
    let result: TDeviceResetResult;
    if (!uuid.test(id)) {
      result = { entitlementId: raw, devicesReset: 0, transferCount: 0, error: "Entitlement not found." };
    } else {
      try {
        result = await resetDevices(ctx, id);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        result = { entitlementId: raw, devicesReset: 0, transferCount: 0, error: error.message };
      }
    }
    seen.set(id, result);
    results.push(result);
  }
  return results;
}
