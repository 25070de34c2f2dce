import { route } from "@/server/http/route";
import { setBalanceContract } from "@/server/http/contracts/metering/balances";
import { setBalance } from "@/server/domain/metering/balances/set-balance";

// POST /api/v1/provision/operational/entitlements/{id}/balances/{metricName}/set
export const POST = route(setBalanceContract, ({ ctx, params, body }) =>
  setBalance(ctx, params.id, params.metricName, body.amount),
);
