import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { findSubscription, type SubscriptionAccess } from "./subscription-access.ts";

/**
 * docs/api.md: removes the subscription and its pending deliveries. Its delivery history, captured
 * events and the envelopes aimed at it alone (test-fires, replays, challenges) go with it; a job
 * still queued for one of its deliveries finds nothing and ends. The row is locked first, so the
 * cascade waits for a fan-out that is inserting deliveries for it. Deliveries being sent while the
 * cascade removes them can still make PostgreSQL pick this transaction as a deadlock victim: it is
 * then run again.
 */
export async function deleteSubscription(
  ctx: DomainContext,
  access: SubscriptionAccess,
  id: string,
): Promise<void> {
  await findSubscription(ctx, access, id);
  await inTransaction(
    ctx.db,
    async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "WebhookSubscription" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
      if (locked.length === 0) throw notFound("Subscription");
      await tx.webhookSubscription.delete({ where: { id } });
    },
    { retryOnConflict: true },
  );
}
