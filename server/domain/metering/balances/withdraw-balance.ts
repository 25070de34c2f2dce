import type { DomainContext } from "../../context.ts";
import { mutateBalance } from "./mutate-balance.ts";

/** POST /operational/entitlements/{id}/balances/{metricName}/withdraw (arithmetic in mutate-balance.ts). */
export const withdrawBalance = (
  ctx: DomainContext,
  entitlementId: string,
  metricName: string,
  amount: number,
) => mutateBalance(ctx, entitlementId, metricName, "Withdraw", amount);
