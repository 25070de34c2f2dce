import { route } from "@/server/http/route";
import { grantConsumerCreditsContract } from "@/server/http/contracts/metering/balances";
import { grantConsumerCredits } from "@/server/domain/metering/balances/grant-consumer-credits";

// POST /api/v1/provision/consumer/me/entitlements/{id}/credit-grants
export const POST = route(grantConsumerCreditsContract, ({ ctx, params, body }) =>
  grantConsumerCredits(ctx, params.id, body),
);
