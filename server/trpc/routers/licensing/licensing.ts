import { z } from "zod";
import { consumerProcedure, router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZActivationCodeIssueRequest,
  ZActivationCodeIssueResponse,
  ZActivationCodeResponse,
} from "../../../domain/licensing/activation-codes/activation-code.schemas.ts";
import { issueActivationCodes } from "../../../domain/licensing/activation-codes/issue-activation-codes.ts";
import { listActivationCodes } from "../../../domain/licensing/activation-codes/list-activation-codes.ts";
import { listConsumerActivationCodes } from "../../../domain/licensing/activation-codes/list-consumer-activation-codes.ts";
import { revokeActivationCode } from "../../../domain/licensing/activation-codes/revoke-activation-code.ts";
import {
  ZDeviceResetResult,
  ZDeviceResponse,
  ZFleetDeviceListQuery,
} from "../../../domain/licensing/devices/device.schemas.ts";
import { listEntitlementDevices } from "../../../domain/licensing/devices/list-entitlement-devices.ts";
import { resetDevices } from "../../../domain/licensing/devices/reset-devices.ts";
import { listDevices } from "../../../domain/licensing/devices/list-devices.ts";
import { blockDevice, unblockDevice } from "../../../domain/licensing/devices/block-device.ts";
import { getTransferCount } from "../../../domain/licensing/devices/get-transfer-count.ts";

const ZEntitlement = z.object({ entitlementId: z.string().uuid() });

/** Back-office adapters for activation codes and devices (the same domain functions as REST). */
export const licensingRouter = router({
  listActivationCodes: staffProcedure("entitlements")
    .input(ZListQuery)
    .output(ZPage(ZActivationCodeResponse))
    .query(({ ctx, input }) => listActivationCodes(ctx.domain, input)),
  issueActivationCodes: staffProcedure("entitlements")
    .input(ZEntitlement.extend(ZActivationCodeIssueRequest.shape))
    .output(ZActivationCodeIssueResponse)
    .mutation(({ ctx, input }) => issueActivationCodes(ctx.domain, input.entitlementId, input)),
  /** Portal: codes of the entitlements assigned to the signed-in user (GET /consumer/me/activation-codes). */
  myActivationCodes: consumerProcedure
    .input(ZListQuery)
    .output(ZPage(ZActivationCodeResponse))
    .query(({ ctx, input }) => listConsumerActivationCodes(ctx.domain, input)),
  revokeActivationCode: staffProcedure("entitlements")
    .input(z.object({ code: z.string().min(1).max(200) }))
    .output(ZActivationCodeResponse)
    .mutation(({ ctx, input }) => revokeActivationCode(ctx.domain, input.code)),

  transferCount: staffProcedure("devices")
    .input(ZEntitlement)
    .query(({ ctx, input }) => getTransferCount(ctx.domain, input.entitlementId)),
  listDevices: staffProcedure("devices")
    .input(ZEntitlement.extend(ZListQuery.shape))
    .output(ZPage(ZDeviceResponse))
    .query(({ ctx, input }) => listEntitlementDevices(ctx.domain, input.entitlementId, input)),
  /** Every device of the tenant (the fleet), filtered and searched like an entitlement's, and by customer and product. */
  listAllDevices: staffProcedure("devices")
    .input(ZFleetDeviceListQuery)
    .output(ZPage(ZDeviceResponse))
    .query(({ ctx, input }) => listDevices(ctx.domain, input)),
  /** Ends one device's sessions and frees their seats; counts as a transfer, like a reset. */
  deactivateDevice: staffProcedure("devices")
    .input(ZEntitlement.extend({ deviceId: z.string().uuid() }))
    .output(ZDeviceResetResult)
    .mutation(({ ctx, input }) =>
      resetDevices(ctx.domain, input.entitlementId, { deviceId: input.deviceId }),
    ),
  resetDevices: staffProcedure("devices")
    .input(ZEntitlement)
    .output(ZDeviceResetResult)
    .mutation(({ ctx, input }) => resetDevices(ctx.domain, input.entitlementId)),
  blockDevice: staffProcedure("devices")
    .input(
      ZEntitlement.extend({
        fingerprint: z.string().min(1).max(4096).optional(),
        deviceId: z.string().uuid().optional(),
      }).refine((v) => (v.fingerprint === undefined) !== (v.deviceId === undefined), {
        message: "Give exactly one of fingerprint or deviceId.",
        path: ["fingerprint"],
      }),
    )
    .output(ZDeviceResponse)
    .mutation(({ ctx, input }) =>
      blockDevice(ctx.domain, input.entitlementId, {
        fingerprint: input.fingerprint,
        deviceId: input.deviceId,
      }),
    ),
  unblockDevice: staffProcedure("devices")
    .input(ZEntitlement.extend({ deviceId: z.string().uuid() }))
    .output(ZDeviceResponse)
    .mutation(({ ctx, input }) => unblockDevice(ctx.domain, input.entitlementId, input.deviceId)),
});
