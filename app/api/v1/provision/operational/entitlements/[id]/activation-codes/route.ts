import { route } from "@/server/http/route";
import { issueActivationCodesContract } from "@/server/http/contracts/licensing/activation-codes";
import { issueActivationCodes } from "@/server/domain/licensing/activation-codes/issue-activation-codes";

// POST /api/v1/provision/operational/entitlements/{id}/activation-codes
export const POST = route(issueActivationCodesContract, ({ ctx, params, body }) =>
  issueActivationCodes(ctx, params.id, body),
);
