import { route } from "@/server/http/route";
import { depositBalanceContract } from "@/server/http/contracts/balances";
import { depositBalance } from "@/server/domain/entitlements/deposit-balance";

// POST /api/v1/provision/operational/entitlements/{id}/balances/{metricName}/deposit
export const POST = route(depositBalanceContract, ({ ctx, params, body }) => depositBalance(ctx, params.id, params.metricName, body.amount));
