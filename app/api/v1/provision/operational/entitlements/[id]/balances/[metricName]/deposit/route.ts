import { route } from "@/server/http/route";
import { depositBalanceContract } from "@/server/http/contracts/metering/balances";
import { depositBalance } from "@/server/domain/metering/balances/deposit-balance";

// POST /api/v1/provision/operational/entitlements/{id}/balances/{metricName}/deposit
export const POST = route(depositBalanceContract, ({ ctx, params, body }) =>
  depositBalance(ctx, params.id, params.metricName, body.amount),
);
