import { z } from "zod";
import { consumerProcedure, router, staffProcedure } from "../../init.ts";
import {
  ZBalanceMutationResponse,
  ZBalanceSetRequest,
  ZBalanceAmountRequest,
  ZConsumerCreditGrantRequest,
} from "../../../domain/metering/balances/balance-mutation.schemas.ts";
import { grantConsumerCredits } from "../../../domain/metering/balances/grant-consumer-credits.ts";
import { depositBalance } from "../../../domain/metering/balances/deposit-balance.ts";
import { withdrawBalance } from "../../../domain/metering/balances/withdraw-balance.ts";
import { setBalance } from "../../../domain/metering/balances/set-balance.ts";
import {
  listBalanceHistory,
  listEntitlementBalanceMetrics,
} from "../../../domain/metering/balances/list-balance-history.ts";

const ZEntitlement = z.object({ entitlementId: z.string().uuid() });
const ZBalance = ZEntitlement.extend({ metricName: z.string().min(1).max(200) });

/**
 * Back-office adapters for an entitlement's credit balances, and the portal's consumer credit grant
 * (the same domain functions as REST).
 */
export const balancesRouter = router({
  metrics: staffProcedure("metering")
    .input(ZEntitlement)
    .query(({ ctx, input }) => listEntitlementBalanceMetrics(ctx.domain, input.entitlementId)),
  history: staffProcedure("metering")
    .input(ZBalance)
    .query(({ ctx, input }) => listBalanceHistory(ctx.domain, input.entitlementId, input.metricName)),
  deposit: staffProcedure("metering")
    .input(ZBalance.extend(ZBalanceAmountRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) =>
      depositBalance(ctx.domain, input.entitlementId, input.metricName, input.amount),
    ),
  withdraw: staffProcedure("metering")
    .input(ZBalance.extend(ZBalanceAmountRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) =>
      withdrawBalance(ctx.domain, input.entitlementId, input.metricName, input.amount),
    ),
  set: staffProcedure("metering")
    .input(ZBalance.extend(ZBalanceSetRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) =>
      setBalance(ctx.domain, input.entitlementId, input.metricName, input.amount),
    ),
  grantMine: consumerProcedure
    .input(ZEntitlement.extend(ZConsumerCreditGrantRequest.shape))
    .output(ZBalanceMutationResponse)
    .mutation(({ ctx, input }) =>
      grantConsumerCredits(ctx.domain, input.entitlementId, {
        metricName: input.metricName,
        amount: input.amount,
      }),
    ),
});
