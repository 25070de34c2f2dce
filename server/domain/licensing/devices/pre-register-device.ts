import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";
import type { TDevicePreRegisterRequest, TDeviceResponse } from "./device.schemas.ts";
import { loadDevice } from "./device-response.ts";
import { fingerprintHash } from "./fingerprint-hash.ts";
import { lockEntitlementRow } from "../../entitlements/entitlement/entitlement-lock.ts";

/**
 * POST /operational/entitlements/{id}/devices: registers a device ahead of activation (for
 * entitlements whose activationPolicy requires pre-configured devices). A device already known
 * (activated or blocked) is marked pre-registered. docs/api.md: emits nothing.
 */
export async function preRegisterDevice(
  ctx: DomainContext,
  entitlementId: string,
  input: TDevicePreRegisterRequest,
): Promise<TDeviceResponse> {
  return inTransaction(ctx.db, async (tx) => {
    await lockEntitlementRow(tx, ctx.tenantId, entitlementId);
    const hash = fingerprintHash(input.fingerprint);
    const device = await tx.device.upsert({
      where: {
        tenantId_entitlementId_fingerprintHash: {
          tenantId: ctx.tenantId,
          entitlementId,
          fingerprintHash: hash,
        },
      },
      create: {
        tenantId: ctx.tenantId,
        entitlementId,
        fingerprintHash: hash,
        deviceName: input.deviceName ?? null,
        isPreRegistered: true,
      },
      update: { isPreRegistered: true, ...(input.deviceName ? { deviceName: input.deviceName } : {}) },
    });
    return loadDevice(tx, device.id);
  });
}

/**
 * DELETE /operational/entitlements/{id}/devices/{deviceId}: withdraws a pre-registration. A device
 * that never activated and is not blocked is removed; one with activation history or a block keeps
 * its record (the history and the block stay) and only loses the pre-registration. Emits nothing.
 */
export async function removePreRegisteredDevice(
  ctx: DomainContext,
  entitlementId: string,
  deviceId: string,
): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await lockEntitlementRow(tx, ctx.tenantId, entitlementId);
    const device = await tx.device.findFirst({
      where: { id: deviceId, entitlementId, isPreRegistered: true },
      include: { _count: { select: { sessions: true } } },
    });
    if (!device) throw notFound("Pre-registered device");
    if (device._count.sessions === 0 && !device.isBlocked)
      await tx.device.delete({ where: { id: device.id } });
    else await tx.device.update({ where: { id: device.id }, data: { isPreRegistered: false } });
  });
}
