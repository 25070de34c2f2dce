import { route } from "@/server/http/route";
import {
  adminGetCallbackScopeAllowanceContract,
  adminSetCallbackScopeAllowanceContract,
} from "@/server/http/contracts/webhooks/webhooks";
import {
  getCallbackScopeAllowance,
  setCallbackScopeAllowance,
} from "@/server/domain/webhooks/subscriptions/callback-scope-allowance";

// GET /api/v1/webhooks/integrator-clients/{clientId}/callback-scope-allowance
export const GET = route(adminGetCallbackScopeAllowanceContract, ({ ctx, params }) =>
  getCallbackScopeAllowance(ctx, params.clientId),
);

// PUT /api/v1/webhooks/integrator-clients/{clientId}/callback-scope-allowance
export const PUT = route(adminSetCallbackScopeAllowanceContract, ({ ctx, params, body }) =>
  setCallbackScopeAllowance(ctx, params.clientId, body),
);
