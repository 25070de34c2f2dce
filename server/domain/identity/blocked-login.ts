import type { Db } from "../../db/client.ts";

/**
 * Whether a consumer login is blocked (docs/security.md "Round 3", item 7): it is linked to
 * customer-user records and the vendor has blocked every one of them. Such a login gets neither a
 * portal session nor a token from the password grant. A login with one unblocked record still
 * signs in (it acts for that customer); one with no record yet (or only unapproved ones) signs in
 * and holds nothing (docs/decisions.md "Who a signed-in user acts for").
 */
export async function isBlockedLogin(db: Db, tenantId: string, userId: string): Promise<boolean> {
  const records = await db.customerUser.findMany({
    where: { tenantId, userId },
    select: { isBlocked: true },
    take: 100,
  });
  return records.length > 0 && records.every((r) => r.isBlocked);
}
