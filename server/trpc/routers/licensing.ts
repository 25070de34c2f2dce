import { z } from "zod";
import { consumerProcedure, router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import { ZActivationCodeIssueRequest, ZActivationCodeIssueResponse, ZActivationCodeResponse } from "../../domain/entitlements/activation-code.schemas.ts";
import { issueActivationCodes } from "../../domain/entitlements/issue-activation-codes.ts";
import { listActivationCodes } from "../../domain/entitlements/list-activation-codes.ts";
import { listConsumerActivationCodes } from "../../domain/entitlements/list-consumer-activation-codes.ts";
import { revokeActivationCode } from "../../domain/entitlements/revoke-activation-code.ts";
import { ZDeviceResetResult, ZDeviceResponse } from "../../domain/licensing/device.schemas.ts";
import { listEntitlementDevices } from "../../domain/licensing/list-entitlement-devices.ts";
import { resetDevices } from "../../domain/licensing/reset-devices.ts";
import { blockDevice, unblockDevice } from "../../domain/licensing/block-device.ts";
import { getTransferCount } from "../../domain/licensing/get-transfer-count.ts";
import { ZBalanceMutationResponse, ZBalanceSetRequest, ZBalanceAmountRequest } from "../../domain/entitlements/balance-mutation.schemas.ts";
import { depositBalance } from "../../domain/entitlements/deposit-balance.ts";
import { withdrawBalance } from "../../domain/entitlements/withdraw-balance.ts";
import { setBalance } from "../../domain/entitlements/set-balance.ts";
import { listBalanceHistory, listEntitlementBalanceMetrics } from "../../domain/entitlements/list-balance-history.ts";

const ZEntitlement = z.object({ entitlementId: z.string().uuid() });
const ZBalance = ZEntitlement.extend({ metricName: z.string().min(1).max(200) });

/** Back-office adapters for activation codes, devices and balances (the same domain functions as REST). */
export const licensingRouter = router({
  listActivationCodes: staffProcedure
    .input(ZListQuery)
    .output(ZPage(ZActivationCodeResponse))
    .query(({ ctx, input }) => listActivationCodes(ctx.domain, input)),
  issueActivationCodes: staffProcedure
    .input(ZEntitlement.extend(ZActivationCodeIssueRequest.shape))
    .output(ZActivationCodeIssueResponse)
    .mutation(({ ctx, input }) => issueActivationCodes(ctx.domain, input.entitlementId, input)),
  /** Portal: codes of the entitlements assigned to the signed-in user (GET /consumer/me/activation-codes). */
  myActivationCodes: consumerProcedure
    .input(ZListQuery)
    .output(ZPage(ZActivationCodeResponse))
    .query(({ ctx, input }) => listConsumerActivationCodes(ctx.domain, input)),
  revokeActivationCode: staffProcedure
    .input(z.object({ code: z.string().min(1).max(200) }))
    .output(ZActivationCodeResponse)
    .mutation(({ ctx, input }) => revokeActivationCode(ctx.domain, input.code)),

  transferCount: staffProcedure.input(ZEntitlement).query(({ ctx, input }) => getTransferCount(ctx.domain, input.entitlementId)),
  listDevices: staffProcedure
    .input(ZEntitlement.extend(ZListQuery.shape))
    .output(ZPage(ZDeviceResponse))
    .query(({ ctx, input }) => listEntitlementDevices(ctx.domain, input.entitlementId, input)),
  resetDevices: staffProcedure.input(ZEntitlement).output(ZDeviceResetResult).mutation(({ ctx, input }) => resetDevices(ctx.domain, input.entitlementId)),
  blockDevice: staffProcedure
    .input(
      ZEntitlement.extend({ fingerprint: z.string().min(1).max(4096).optional(), deviceId: z.string().uuid().optional() }).refine(
        (v) => (v.fingerprint === undefined) !== (v.deviceId === undefined),
        { message: "Give exactly one of fingerprint or deviceId.", path: ["fingerprint"] },
      ),
    )
    .output(ZDeviceResponse)
    .mutation(({ ctx, input }) => blockDevice(ctx.domain, input.entitlementId, { fingerprint: input.fingerprint, deviceId: input.deviceId })),
  unblockDevice: staffProcedure
    .input(ZEntitlement.extend({ deviceId: z.string().uuid() }))
    .output(ZDeviceResponse)
    .mutation(({ ctx, input }) => unblockDevice(ctx.domain, input.entitlementId, input.deviceId)),

  balanceMetrics: staffProcedure.input(ZEntitlement).query(({ ctx, input }) => listEntitlementBalanceMetrics(ctx.domain, input.entitlementId)),
  balanceHistory: staffProcedure.input(ZBalance).query(({ ctx, input }) => listBalanceHistory(ctx.domain, input.entitlementId, input.metricName)),
  depositBalance: staffProcedure
    .input(ZBalance.extend(ZBalanceAmountRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) => depositBalance(ctx.domain, input.entitlementId, input.metricName, input.amount)),
  withdrawBalance: staffProcedure
    .input(ZBalance.extend(ZBalanceAmountRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) => withdrawBalance(ctx.domain, input.entitlementId, input.metricName, input.amount)),
  setBalance: staffProcedure
    .input(ZBalance.extend(ZBalanceSetRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) => setBalance(ctx.domain, input.entitlementId, input.metricName, input.amount)),
});
