import type { DomainContext } from "../../context.ts";
import { mutateBalance } from "./mutate-balance.ts";

/** POST /operational/entitlements/{id}/balances/{metricName}/set (arithmetic in mutate-balance.ts). */
export const setBalance = (ctx: DomainContext, entitlementId: string, metricName: string, amount: number) =>
  mutateBalance(ctx, entitlementId, metricName, "Set", amount);
