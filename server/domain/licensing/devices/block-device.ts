import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { emitEvent } from "../../webhooks/events/emit-event.ts";
import type { TDeviceBlockRequest, TDeviceResponse } from "./device.schemas.ts";
import { loadDevice } from "./device-response.ts";
import { entitlementRoutingKeys } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import { emitSeatReleased, revokeSessions } from "./end-device-sessions.ts";
import { fingerprintHash } from "./fingerprint-hash.ts";
import { lockEntitlementRow } from "../../entitlements/entitlement/entitlement-lock.ts";

/**
 * POST /operational/entitlements/{id}/devices/block (docs/api.md "States and transitions", Device
 * rows): the device's current activations end as for a reset (without a transfer), it emits
 * `Entitlement.DeviceBlocked` and `Entitlement.SeatReleased` per ended session, and no
 * activation admits it. By fingerprint, a device never seen is recorded blocked in advance.
 * Blocking a blocked device changes nothing and emits nothing.
 */
export async function blockDevice(
  ctx: DomainContext,
  entitlementId: string,
  input: TDeviceBlockRequest,
): Promise<TDeviceResponse> {
  return inTransaction(ctx.db, async (tx) => {
    await lockEntitlementRow(tx, ctx.tenantId, entitlementId);
    const device = input.deviceId
      ? await tx.device.findFirst({ where: { id: input.deviceId, entitlementId } })
      : await tx.device.upsert({
          where: {
            tenantId_entitlementId_fingerprintHash: {
              tenantId: ctx.tenantId,
              entitlementId,
              fingerprintHash: fingerprintHash(input.fingerprint!),
            },
          },
          create: {
            tenantId: ctx.tenantId,
            entitlementId,
            fingerprintHash: fingerprintHash(input.fingerprint!),
          },
          update: {},
        });
    if (!device) throw notFound("Device");
    if (device.isBlocked) return loadDevice(tx, device.id);
    const at = now();
    await tx.device.update({ where: { id: device.id }, data: { isBlocked: true, blockedAt: at } });
    const ended = await revokeSessions(tx, { entitlementId, deviceId: device.id }, "DeviceBlocked", at);
    const keys = await entitlementRoutingKeys(tx, entitlementId);
    await emitEvent(tx, {
      tenantId: ctx.tenantId,
      type: "Entitlement.DeviceBlocked",
      entityKind: "entitlement",
      entityId: entitlementId,
      subject: `entitlements/${entitlementId}`,
      data: {
        ...keys,
        deviceId: device.id,
        deviceFingerprintHash: device.fingerprintHash,
        blockedAtUtc: at.toISOString(),
      },
    });
    await emitSeatReleased(tx, ctx.tenantId, keys, ended, at);
    return loadDevice(tx, device.id);
  });
}

/**
 * POST /operational/entitlements/{id}/devices/{deviceId}/unblock: emits
 * `Entitlement.DeviceUnblocked`; ended activations do not return (the device activates again as
 * a new one). Unblocking a device that is not blocked changes nothing and emits nothing.
 */
export async function unblockDevice(
  ctx: DomainContext,
  entitlementId: string,
  deviceId: string,
): Promise<TDeviceResponse> {
  return inTransaction(ctx.db, async (tx) => {
    await lockEntitlementRow(tx, ctx.tenantId, entitlementId);
    const device = await tx.device.findFirst({ where: { id: deviceId, entitlementId } });
    if (!device) throw notFound("Device");
    if (!device.isBlocked) return loadDevice(tx, device.id);
    const at = now();
    await tx.device.update({ where: { id: device.id }, data: { isBlocked: false, unblockedAt: at } });
    const keys = await entitlementRoutingKeys(tx, entitlementId);
    await emitEvent(tx, {
      tenantId: ctx.tenantId,
      type: "Entitlement.DeviceUnblocked",
      entityKind: "entitlement",
      entityId: entitlementId,
      subject: `entitlements/${entitlementId}`,
      data: {
        ...keys,
        deviceId: device.id,
        deviceFingerprintHash: device.fingerprintHash,
        unblockedAtUtc: at.toISOString(),
      },
    });
    return loadDevice(tx, device.id);
  });
}
