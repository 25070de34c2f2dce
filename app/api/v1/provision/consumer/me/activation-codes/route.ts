import { route } from "@/server/http/route";
import { listConsumerActivationCodesContract } from "@/server/http/contracts/licensing/activation-codes";
import { listConsumerActivationCodes } from "@/server/domain/licensing/activation-codes/list-consumer-activation-codes";

// GET /api/v1/provision/consumer/me/activation-codes
export const GET = route(listConsumerActivationCodesContract, ({ ctx, query }) =>
  listConsumerActivationCodes(ctx, query),
);
