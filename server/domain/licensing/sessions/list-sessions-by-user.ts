import type { DomainContext } from "../../context.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";
import type { Page, TListQuery } from "../../../core/pagination.ts";
import {
  entitlementIdsOfCustomers,
  type CustomerRecord,
} from "../../entitlements/consumer/consumer-entitlements.ts";
import { pageOfSessions } from "./list-sessions.ts";
import type { TSessionResponse } from "./session-read-model.ts";

/**
 * The sessions that belong to customer users: those on entitlements assigned to them directly or
 * through their organizations, and those the given platform users (`logins`) activated with
 * useInteractiveUser.
 */
export async function sessionsOfCustomerUsers(
  db: TenantDbOrTx,
  customers: CustomerRecord[],
  logins: string[],
): Promise<Prisma.LicenseSessionWhereInput> {
  const entitlementIds = await entitlementIdsOfCustomers(db, customers);
  return {
    OR: [
      { entitlementId: { in: entitlementIds } },
      ...(logins.length ? [{ activatedByUserId: { in: logins } }] : []),
    ],
  };
}

/** GET /admin/sessions/activations/by-user/{userId}: `userId` is a customer user id (/admin/customers/users/{id}). */
export async function listSessionsByUser(
  ctx: DomainContext,
  customerUserId: string,
  query: TListQuery,
): Promise<Page<TSessionResponse>> {
  const customer = await ctx.db.customerUser.findFirst({
    where: { id: customerUserId },
    select: { id: true, userId: true, organizationIds: true },
  });
  if (!customer) throw notFound("Customer user");
  return pageOfSessions(
    ctx,
    query,
    await sessionsOfCustomerUsers(ctx.db, [customer], customer.userId ? [customer.userId] : []),
  );
}
