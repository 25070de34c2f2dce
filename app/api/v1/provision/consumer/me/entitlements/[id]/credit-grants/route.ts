import { route } from "@/server/http/route";
import { grantConsumerCreditsContract } from "@/server/http/contracts/balances";
import { grantConsumerCredits } from "@/server/domain/entitlements/grant-consumer-credits";

// POST /api/v1/provision/consumer/me/entitlements/{id}/credit-grants
export const POST = route(grantConsumerCreditsContract, ({ ctx, params, body }) => grantConsumerCredits(ctx, params.id, body));
