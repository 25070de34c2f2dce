import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { consumerEntitlementIds } from "../../entitlements/consumer/consumer-entitlements.ts";
import { listActivationCodes } from "./list-activation-codes.ts";

/** GET /consumer/me/activation-codes: codes of the entitlements assigned to the signed-in user. */
export async function listConsumerActivationCodes(ctx: DomainContext, query: TListQuery) {
  return listActivationCodes(ctx, query, { entitlementIds: await consumerEntitlementIds(ctx) });
}
