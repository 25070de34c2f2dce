import type { DomainContext } from "../../context.ts";
import type { Db } from "../../../db/client.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { parseEnvelope } from "./envelope.ts";
import { patternsMatch } from "../subscriptions/event-type-patterns.ts";
import { filtersMatch } from "../subscriptions/subscription-filters.ts";
import type { TSubscriptionFilters } from "../subscriptions/subscription.schemas.ts";

/** A raw-query client: the process Prisma client's transaction or a tenant's (ctx.db). */
type RawTx = Pick<Db, "$queryRaw" | "$executeRaw"> | TenantTx;

type EnvelopeRow = {
  id: string;
  tenantId: string;
  type: string;
  entityId: string;
  payload: string;
  targetSubscriptionId: string | null;
  createdAt: Date;
};
type SubscriptionRow = {
  id: string;
  tenantId: string;
  targetKind: string;
  eventTypePatterns: string[];
  filters: TSubscriptionFilters | null;
  createdAt: Date;
};
export type FanOutResult = { envelopes: number; deliveries: number };

/** docs/architecture.md section 7: "a few hundred at a time". */
export const DISPATCH_BATCH_SIZE = 200;

/**
 * The worker's dispatcher (docs/architecture.md section 7), over every tenant: claims up to `batchSize`
 * envelopes not yet fanned out, oldest first, with `FOR UPDATE SKIP LOCKED`, writes one delivery
 * per (envelope, matching Active subscription) and stamps `fannedOutAt`, in one transaction.
 * Several workers drain at once without fanning an envelope out twice: a locked envelope is
 * skipped, one committed meanwhile no longer matches `fannedOutAt IS NULL` when re-checked, and
 * deliveries are unique per (envelope, subscription) besides. `createdBefore` lets the sweeper
 * take only envelopes left behind.
 */
export async function dispatchEnvelopes(
  base: Db,
  options: { batchSize?: number; at?: Date; createdBefore?: Date } = {},
): Promise<FanOutResult> {
  const at = options.at ?? now();
  const limit = options.batchSize ?? DISPATCH_BATCH_SIZE;
  const before = options.createdBefore ?? null;
  return base.$transaction(async (tx) => {
    const envelopes = await tx.$queryRaw<EnvelopeRow[]>`
      SELECT id::text AS id, "tenantId"::text AS "tenantId", type, "entityId", payload,
             "targetSubscriptionId"::text AS "targetSubscriptionId", "createdAt"
      FROM "WebhookEnvelope"
      WHERE "fannedOutAt" IS NULL AND (${before}::timestamptz IS NULL OR "createdAt" < ${before}::timestamptz)
      ORDER BY "createdAt" LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`;
    return fanOut(tx, envelopes, at);
  });
}

/**
 * Fans out one envelope of the context's tenant now, in the caller's transaction when ctx.db is
 * one (a test that needs the delivery before the worker sees it). Does nothing for an envelope
 * already fanned out.
 */
export async function fanOutEnvelope(
  ctx: DomainContext,
  envelopeId: string,
  at: Date = now(),
): Promise<number> {
  return inTransaction(ctx.db, async (tx) => {
    const envelopes = await tx.$queryRaw<EnvelopeRow[]>`
      SELECT id::text AS id, "tenantId"::text AS "tenantId", type, "entityId", payload,
             "targetSubscriptionId"::text AS "targetSubscriptionId", "createdAt"
      FROM "WebhookEnvelope"
      WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${envelopeId}::uuid AND "fannedOutAt" IS NULL
      FOR UPDATE`;
    return (await fanOut(tx, envelopes, at)).deliveries;
  });
}

/**
 * One delivery per (envelope, matching Active subscription). An envelope aimed at one subscription
 * (test-fire, replay) skips pattern and filter matching. Capture subscriptions record the event
 * as `captured`. Only subscriptions that existed when the event happened receive it.
 */
async function fanOut(tx: RawTx, envelopes: EnvelopeRow[], at: Date): Promise<FanOutResult> {
  if (envelopes.length === 0) return { envelopes: 0, deliveries: 0 };
  const tenantIds = [...new Set(envelopes.map((e) => e.tenantId))];
  const subscriptions = await tx.$queryRaw<SubscriptionRow[]>`
    SELECT id::text AS id, "tenantId"::text AS "tenantId", "targetKind", "eventTypePatterns", filters, "createdAt"
    FROM "WebhookSubscription"
    WHERE "tenantId" = ANY(${tenantIds}::uuid[]) AND state = 'Active'`;
  const byTenant = new Map<string, SubscriptionRow[]>();
  for (const s of subscriptions) byTenant.set(s.tenantId, [...(byTenant.get(s.tenantId) ?? []), s]);

  const rows: Record<string, unknown>[] = [];
  for (const envelope of envelopes) {
    for (const s of matchingSubscriptions(envelope, byTenant.get(envelope.tenantId) ?? [])) {
      const captured = s.targetKind === "Capture";
      rows.push({
        tenantId: envelope.tenantId,
        envelopeId: envelope.id,
        subscriptionId: s.id,
        eventType: envelope.type,
        entityId: envelope.entityId,
        status: captured ? "captured" : "pending",
        nextAttemptAt: captured ? null : at,
        completedAt: captured ? at : null,
        // The event's time of writing, not the batch's: history and the capture viewer keep the
        // order events happened in, though one batch fans out many at once.
        createdAt: envelope.createdAt,
      });
    }
  }
  let deliveries = 0;
  if (rows.length) {
    deliveries = await tx.$executeRaw`
      INSERT INTO "WebhookDelivery" (id, "tenantId", "envelopeId", "subscriptionId", "eventType", "entityId", status,
                                     "nextAttemptAt", "completedAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), x."tenantId", x."envelopeId", x."subscriptionId", x."eventType", x."entityId", x.status,
             x."nextAttemptAt", x."completedAt", x."createdAt", ${at}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x("tenantId" uuid, "envelopeId" uuid, "subscriptionId" uuid, "eventType" text, "entityId" text, status text,
             "nextAttemptAt" timestamptz, "completedAt" timestamptz, "createdAt" timestamptz)
      ORDER BY x."subscriptionId"
      ON CONFLICT ("tenantId", "envelopeId", "subscriptionId") DO NOTHING`;
  }
  await tx.$executeRaw`
    UPDATE "WebhookEnvelope" AS e SET "fannedOutAt" = ${at}
    FROM unnest(${envelopes.map((e) => e.tenantId)}::uuid[], ${envelopes.map((e) => e.id)}::uuid[]) AS x("tenantId", id)
    WHERE e."tenantId" = x."tenantId" AND e.id = x.id`;
  return { envelopes: envelopes.length, deliveries };
}

function matchingSubscriptions(envelope: EnvelopeRow, active: SubscriptionRow[]): SubscriptionRow[] {
  if (envelope.targetSubscriptionId) return active.filter((s) => s.id === envelope.targetSubscriptionId);
  const candidates = active.filter(
    (s) =>
      s.createdAt.getTime() <= envelope.createdAt.getTime() &&
      patternsMatch(s.eventTypePatterns, envelope.type),
  );
  if (!candidates.some((s) => s.filters)) return candidates;
  const parsed = parseEnvelope(envelope.payload);
  return candidates.filter((s) => filtersMatch(s.filters, parsed));
}
