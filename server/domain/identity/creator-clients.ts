import type { DomainContext } from "../context.ts";
import { now } from "../../clock.ts";
import { disableSubscriptionsOfRevokedClient } from "../webhooks/subscriptions/disable-revoked-client-subscriptions.ts";
import { scopesBeyondRole, type StaffRole } from "./staff-roles/staff-roles.ts";

/**
 * docs/security.md "Round 3", item 3: an API client registered by a staff user lasts only as long
 * as its creator could still register it. Disabling the creator (`role` null) revokes every client
 * they registered; demoting them revokes those whose scopes the new role may not grant. Revoked as
 * `revokeClient` does (tokens refused at their next use, an integration's subscriptions disabled),
 * in the caller's transaction (the role change or the disable). Re-enabling or promoting the user
 * brings nothing back. Returns the revoked clients' ids.
 */
export async function revokeClientsBeyondCreator(
  ctx: DomainContext,
  userId: string,
  role: StaffRole | null,
): Promise<string[]> {
  const clients = await ctx.db.oAuthClient.findMany({
    where: { createdByUserId: userId, revokedAt: null },
    orderBy: { id: "asc" },
  });
  const beyond = clients.filter((c) => role === null || scopesBeyondRole(role, c.scopes).length > 0);
  const at = now();
  for (const client of beyond) {
    const revoked = await ctx.db.oAuthClient.update({ where: { id: client.id }, data: { revokedAt: at } });
    await disableSubscriptionsOfRevokedClient(ctx, revoked, at);
  }
  return beyond.map((c) => c.id);
}
