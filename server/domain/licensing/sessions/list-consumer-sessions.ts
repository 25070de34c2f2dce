import type { DomainContext } from "../../context.ts";
import { now } from "../../../clock.ts";
import type { Page, TListQuery } from "../../../core/pagination.ts";
import { consumerSessionScope } from "./consumer-session-scope.ts";
import { pageOfSessions } from "./list-sessions.ts";
import {
  activeSessionWhere,
  notYetValidEntitlementIds,
  ZConsumerSessionResponse,
  type TConsumerSessionResponse,
} from "./session-read-model.ts";

/** What a signed-in user may filter and sort their sessions by. */
export const consumerSessionFields = [
  "entitlementId",
  "deviceName",
  "processId",
  "activatedAt",
  "leaseExpiresAt",
  "lastContactAt",
] as const;

/** GET /consumer/me/sessions: the signed-in user's active license sessions. */
export async function listConsumerSessions(
  ctx: DomainContext,
  query: TListQuery,
): Promise<Page<TConsumerSessionResponse>> {
  const at = now();
  const scope = {
    AND: [
      await consumerSessionScope(ctx),
      activeSessionWhere(at, await notYetValidEntitlementIds(ctx.db, at)),
    ],
  };
  const page = await pageOfSessions(ctx, query, scope, consumerSessionFields);
  return { ...page, items: page.items.map((item) => ZConsumerSessionResponse.parse(item)) };
}
