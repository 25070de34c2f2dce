import { route } from "@/server/http/route";
import { setBalanceContract } from "@/server/http/contracts/balances";
import { setBalance } from "@/server/domain/entitlements/set-balance";

// POST /api/v1/provision/operational/entitlements/{id}/balances/{metricName}/set
export const POST = route(setBalanceContract, ({ ctx, params, body }) => setBalance(ctx, params.id, params.metricName, body.amount));
