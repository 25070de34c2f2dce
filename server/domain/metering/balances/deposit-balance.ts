import type { DomainContext } from "../../context.ts";
import { mutateBalance } from "./mutate-balance.ts";

/** POST /operational/entitlements/{id}/balances/{metricName}/deposit (arithmetic in mutate-balance.ts). */
export const depositBalance = (
  ctx: DomainContext,
  entitlementId: string,
  metricName: string,
  amount: number,
) => mutateBalance(ctx, entitlementId, metricName, "Deposit", amount);
