import { route } from "@/server/http/route";
import { withdrawBalanceContract } from "@/server/http/contracts/metering/balances";
import { withdrawBalance } from "@/server/domain/metering/balances/withdraw-balance";

// POST /api/v1/provision/operational/entitlements/{id}/balances/{metricName}/withdraw
export const POST = route(withdrawBalanceContract, ({ ctx, params, body }) =>
  withdrawBalance(ctx, params.id, params.metricName, body.amount),
);
