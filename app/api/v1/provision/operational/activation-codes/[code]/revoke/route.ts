import { route } from "@/server/http/route";
import { revokeActivationCodeContract } from "@/server/http/contracts/licensing/activation-codes";
import { revokeActivationCode } from "@/server/domain/licensing/activation-codes/revoke-activation-code";

// POST /api/v1/provision/operational/activation-codes/{code}/revoke
export const POST = route(revokeActivationCodeContract, ({ ctx, params }) =>
  revokeActivationCode(ctx, params.code),
);
