import type { DomainContext } from "../../context.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listDeliveries } from "./list-deliveries.ts";
import { adminAccess } from "../subscriptions/subscription-access.ts";

/** The dead-letter queue (tenant admin): deliveries whose every retry failed, or whose subscription stopped taking deliveries. */
export function listDeadLetters(ctx: DomainContext, query: TListQuery) {
  return listDeliveries(ctx, adminAccess, query, { status: "dead" });
}
