import { route } from "@/server/http/route";
import { listActivationCodesContract } from "@/server/http/contracts/licensing/activation-codes";
import { listActivationCodes } from "@/server/domain/licensing/activation-codes/list-activation-codes";

// GET /api/v1/provision/operational/activation-codes
export const GET = route(listActivationCodesContract, ({ ctx, query }) => listActivationCodes(ctx, query));
