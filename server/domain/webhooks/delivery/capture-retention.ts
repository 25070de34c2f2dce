import type { Db } from "../../../db/client.ts";

/** docs/api.md "Limits": captured deliveries are kept 7 days or the 1,000 most recent per capture subscription. */
export const CAPTURE_RETENTION_MS = 7 * 24 * 60 * 60_000;
export const CAPTURE_RETENTION_COUNT = 1000;

/**
 * The `webhook_capture_retention` cron job: per capture subscription, deletes captured deliveries
 * older than 7 days or beyond the 1,000 most recent, whichever limit is reached first. Returns how
 * many went. Scans every tenant's capture subscriptions; each statement filters its own tenant.
 */
export async function enforceCaptureRetention(
  base: Db,
  at: Date,
  keep = CAPTURE_RETENTION_COUNT,
): Promise<number> {
  const cutoff = new Date(at.getTime() - CAPTURE_RETENTION_MS);
  const subscriptions = await base.webhookSubscription.findMany({
    where: { targetKind: "Capture" },
    select: { id: true, tenantId: true },
  });
  let deleted = 0;
  for (const { id, tenantId } of subscriptions) {
    deleted += await base.$executeRaw`
      DELETE FROM "WebhookDelivery"
      WHERE "tenantId" = ${tenantId}::uuid AND "subscriptionId" = ${id}::uuid AND status = 'captured'
        AND ("createdAt" < ${cutoff} OR id IN (
          SELECT id FROM "WebhookDelivery"
          WHERE "tenantId" = ${tenantId}::uuid AND "subscriptionId" = ${id}::uuid AND status = 'captured'
          ORDER BY "createdAt" DESC, id DESC
          OFFSET ${keep}
        ))`;
  }
  return deleted;
}
