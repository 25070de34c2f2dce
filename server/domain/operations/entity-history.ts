import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { notFound } from "../../core/errors.ts";
import { ZPage, pageEnvelope, pageWindow } from "../../core/pagination.ts";
import { sqlOf } from "../../db/sql.ts";
import { ZAuditEventResponse, type TAuditEventResponse } from "../audit/audit-event.schemas.ts";
import { toAuditEventResponse, type AuditRow } from "../audit/list-audit-events.ts";
import { plainAction, viaLabel } from "../audit/audit-wording.ts";
import { parseEnvelope } from "../webhooks/events/envelope.ts";
import { eventSentence, type EventDeviceNames } from "../webhooks/events/event-sentences.ts";

/** The records with a History tab (or panel), each looked up in the caller's tenant. */
export const historyEntityKinds = [
  "entitlement",
  "offer",
  "product",
  "planSet",
  "webhookSubscription",
  "customer",
] as const;

export const ZEntityHistoryQuery = z.object({
  /** Absent: the record is looked for among every kind with a History (the pages that do not say). */
  entityKind: z.enum(historyEntityKinds).optional(),
  entityId: z.string().uuid(),
  pageNumber: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export type TEntityHistoryQuery = z.infer<typeof ZEntityHistoryQuery>;

export const ZEntityHistoryItem = z.object({
  id: z.string().uuid(),
  /** `change`: a row of the audit trail; `event`: a domain event the record's change emitted. */
  kind: z.enum(["change", "event"]),
  occurredAt: z.string(),
  /** What happened, in plain words. */
  sentence: z.string(),
  /** Who made the change (events carry no actor: null). */
  actor: z.string().nullable(),
  /** Through which door: "Back office", "REST API: client X", "CLI"; "Event" for a domain event. */
  via: z.string(),
  /** A change's field diff (secrets redacted); null for events and for creations and deletions. */
  changes: ZAuditEventResponse.shape.changes,
});
export type TEntityHistoryItem = z.infer<typeof ZEntityHistoryItem>;
export const ZEntityHistoryPage = ZPage(ZEntityHistoryItem);

const exists: Record<
  (typeof historyEntityKinds)[number],
  (ctx: DomainContext, id: string) => Promise<unknown>
> = {
  entitlement: (ctx, id) => ctx.db.entitlement.findFirst({ where: { id }, select: { id: true } }),
  offer: (ctx, id) => ctx.db.offer.findFirst({ where: { id }, select: { id: true } }),
  product: (ctx, id) => ctx.db.product.findFirst({ where: { id }, select: { id: true } }),
  planSet: (ctx, id) => ctx.db.usagePlanSet.findFirst({ where: { id }, select: { id: true } }),
  webhookSubscription: (ctx, id) =>
    ctx.db.webhookSubscription.findFirst({ where: { id }, select: { id: true } }),
  customer: async (ctx, id) =>
    (await ctx.db.customerUser.count({ where: { id } })) +
    (await ctx.db.customerOrganization.count({ where: { id } })),
};

/**
 * The audit rows and the outbox's envelopes of one record, newest first, one page. Test-fires,
 * replays and verification challenges (sent to one subscription, never fanned out) are not part of
 * the record's history. Events written in one statement share their instant; `rank` keeps them in
 * the order they happen (a new session's activation before its seat, a reset before the seat it frees).
 */
const HISTORY_PAGE = {
  name: "history.entity-page",
  text: `WITH history AS (
    SELECT 'change' AS kind, a.id, a."occurredAt" AS at, 0 AS rank, a."actorKind", a."actorId", a."actorLabel",
           a.source, a.operation, a.action, a."entityKind", a."entityId", a."correlationId", a.changes,
           NULL::text AS payload
      FROM "AuditEvent" a
     WHERE a."tenantId" = $1::uuid AND a."entityId" = $2
    UNION ALL
    SELECT 'event', e.id, e.time,
           CASE e.type WHEN 'Entitlement.Activated' THEN 1 WHEN 'Entitlement.DeviceReset' THEN 1
                       WHEN 'Entitlement.DeviceBlocked' THEN 1 ELSE 2 END,
           NULL, NULL, NULL, NULL, NULL, NULL, e."entityKind", e."entityId", NULL, NULL, e.payload
      FROM "WebhookEnvelope" e
     WHERE e."tenantId" = $1::uuid AND e."entityId" = $2
       AND NOT e."isTest" AND e."replayOfId" IS NULL AND e."targetSubscriptionId" IS NULL
  ), page AS (
    SELECT * FROM history ORDER BY at DESC, rank DESC, id DESC LIMIT $3 OFFSET $4
  )
  SELECT (SELECT count(*) FROM history)::int AS total, page.*
    FROM (SELECT 1) AS one LEFT JOIN page ON true
   ORDER BY page.at DESC, page.rank DESC, page.id DESC`,
};

/** An audit row or an event in the merged list: `kind` null on the empty page's count-only row. */
type HistoryRow = Omit<AuditRow, "occurredAt"> & {
  total: number;
  kind: "change" | "event" | null;
  at: Date;
  payload: string | null;
};

/** The names of the devices a page of events refers to, by session and by device (two reads). */
async function deviceNames(ctx: DomainContext, events: Record<string, unknown>[]): Promise<EventDeviceNames> {
  const ids = (key: string) => [
    ...new Set(events.map((d) => d[key]).filter((v): v is string => typeof v === "string")),
  ];
  const sessionIds = ids("sessionId");
  const deviceIds = ids("deviceId");
  const [sessions, devices] = await Promise.all([
    sessionIds.length
      ? ctx.db.licenseSession.findMany({
          where: { id: { in: sessionIds } },
          select: { id: true, deviceName: true, deviceId: true },
        })
      : [],
    deviceIds.length
      ? ctx.db.device.findMany({ where: { id: { in: deviceIds } }, select: { id: true, deviceName: true } })
      : [],
  ]);
  // A session names its device as the device row does now (renamed devices read by their new name).
  const sessionDevices = sessions.length
    ? await ctx.db.device.findMany({
        where: { id: { in: [...new Set(sessions.map((s) => s.deviceId))] } },
        select: { id: true, deviceName: true },
      })
    : [];
  const byDevice = new Map<string, string>();
  for (const d of [...devices, ...sessionDevices]) if (d.deviceName) byDevice.set(d.id, d.deviceName);
  const bySession = new Map<string, string>();
  for (const s of sessions) {
    const name = byDevice.get(s.deviceId) ?? s.deviceName;
    if (name) bySession.set(s.id, name);
  }
  return { bySession, byDevice };
}

/** The record in the caller's tenant, of the kind named or of any kind with a History; else 404. */
async function mustExist(ctx: DomainContext, kind: TEntityHistoryQuery["entityKind"], id: string) {
  const kinds = kind ? [kind] : historyEntityKinds;
  const found = await Promise.all(kinds.map((k) => exists[k](ctx, id)));
  if (!found.some(Boolean)) throw notFound("Record");
}

/**
 * One record's History: its audit trail (who changed what, through which door) and the domain
 * events its changes emitted (what webhooks were told: seats taken and freed, devices reset or
 * blocked, plan changes reviewed), in one list, newest first, each in plain words. A record the
 * tenant does not hold is not found, whatever the other tenant's rows say.
 */
export async function listEntityHistory(ctx: DomainContext, query: TEntityHistoryQuery) {
  await mustExist(ctx, query.entityKind, query.entityId);
  const { skip, take } = pageWindow(query);
  const rows = await sqlOf(ctx.db).query<HistoryRow>(HISTORY_PAGE, [
    ctx.tenantId,
    query.entityId,
    take,
    skip,
  ]);
  const total = rows[0]?.total ?? 0;
  const page = rows.filter((r) => r.kind !== null);
  const events = new Map(
    page.filter((r) => r.kind === "event").map((r) => [r.id, parseEnvelope(r.payload ?? "{}").data ?? {}]),
  );
  const names = await deviceNames(ctx, [...events.values()]);
  const items = page.map((r): TEntityHistoryItem => {
    if (r.kind === "event") {
      const envelope = parseEnvelope(r.payload ?? "{}");
      return {
        id: r.id,
        kind: "event",
        occurredAt: r.at.toISOString(),
        sentence: eventSentence(envelope.type, events.get(r.id) ?? {}, names),
        actor: null,
        via: "Event",
        changes: null,
      };
    }
    const change: TAuditEventResponse = toAuditEventResponse({ ...r, occurredAt: r.at });
    return {
      id: r.id,
      kind: "change",
      occurredAt: change.occurredAt,
      sentence: plainAction(change),
      actor: change.actorLabel ?? change.actorKind,
      via: viaLabel(change),
      changes: change.changes,
    };
  });
  return pageEnvelope(items, query, total);
}
