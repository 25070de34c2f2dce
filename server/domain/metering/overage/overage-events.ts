import type { SqlTx, Statement } from "../../../db/sql.ts";
import type { TenantTx } from "../../../db/tenant-db.ts";
import { emitEvents } from "../../webhooks/events/emit-event.ts";
import { entitlementRoutingKeys } from "../../entitlements/entitlement/entitlement-routing-keys.ts";
import type { Period } from "../periods/period.ts";
import { toNumber, type Micros } from "../quantity.ts";
import type { Severity } from "./severity.ts";

/** A meter's or balance's severity as a write left it, beside the one last reported. */
export type SeverityChange = {
  usageKind: "Metered" | "Balance";
  monitoredAssetId: string;
  metricName: string;
  /** The MeteredUsage row whose lastReportedOverageSeverityStatus records it (Metered only). */
  meteredUsageId?: string;
  /** The previous severity; for a metered meter it is re-read under the row's lock. */
  previous: Severity;
  severity: Severity;
  tierName?: string | null;
  usage: Micros;
  limit?: Micros | null;
  period?: Period | null;
};

/**
 * Records the new severity of a metered meter (lastReportedOverageSeverityStatus) and answers the
 * one it replaces, under the row's lock; null when it already was that severity (a concurrent
 * write reported it first). Taken last, after periods and balances (consume-sql.ts lock order).
 */
const REPORT_METER_SEVERITY: Statement = {
  name: "metering.report_meter_severity",
  text: `
WITH old AS (
  SELECT id, "lastReportedOverageSeverityStatus" AS previous FROM "MeteredUsage"
  WHERE "tenantId" = $1 AND id = $2 FOR UPDATE
)
UPDATE "MeteredUsage" mu SET "lastReportedOverageSeverityStatus" = $3
FROM old WHERE mu."tenantId" = $1 AND mu.id = old.id AND old.previous IS DISTINCT FROM $3
RETURNING old.previous`,
};

/**
 * docs/api.md `MeteredUsage.OverageStatusChanged`, emitted only when a severity changes, through the
 * outbox in the transaction of the change (`sql`). Balance severities were written by the
 * caller under the balance's lock, so their previous value is exact; a metered meter's is
 * reported here. Data: the entitlement's routing keys, monitoredAssetId, metricName, usageKind,
 * previousSeverity, severity, tierName, usage, limit, changedAtUtc and the period.
 */
export async function emitSeverityChanges(
  sql: SqlTx,
  tenantId: string,
  entitlementId: string,
  changes: readonly SeverityChange[],
  at: Date,
): Promise<number> {
  const confirmed: SeverityChange[] = [];
  for (const change of changes) {
    if (change.usageKind === "Balance") {
      if (change.previous !== change.severity) confirmed.push(change);
      continue;
    }
    const [row] = await sql.query<{ previous: string }>(REPORT_METER_SEVERITY, [
      tenantId,
      change.meteredUsageId,
      change.severity,
    ]);
    if (row) confirmed.push({ ...change, previous: row.previous as Severity });
  }
  if (!confirmed.length) return 0;
  await sql.prisma((tx) => emitOverageEvents(tx, tenantId, entitlementId, confirmed, at));
  return confirmed.length;
}

/**
 * Writes `MeteredUsage.OverageStatusChanged` for severity changes already confirmed (their previous
 * value is exact), through the outbox in `tx`, the transaction of the change.
 */
export async function emitOverageEvents(
  tx: TenantTx,
  tenantId: string,
  entitlementId: string,
  changes: readonly SeverityChange[],
  at: Date,
): Promise<void> {
  if (!changes.length) return;
  const keys = await entitlementRoutingKeys(tx, entitlementId);
  await emitEvents(
    tx,
    changes.map((c) => ({
      tenantId,
      type: "MeteredUsage.OverageStatusChanged",
      entityKind: "monitored-asset",
      entityId: c.monitoredAssetId,
      subject: `monitored-assets/${c.monitoredAssetId}`,
      data: {
        ...keys,
        monitoredAssetId: c.monitoredAssetId,
        metricName: c.metricName,
        usageKind: c.usageKind,
        previousSeverity: c.previous,
        severity: c.severity,
        ...(c.tierName ? { tierName: c.tierName } : {}),
        usage: toNumber(c.usage),
        ...(c.limit !== undefined && c.limit !== null ? { limit: toNumber(c.limit) } : {}),
        changedAtUtc: at.toISOString(),
        ...(c.period
          ? {
              periodKey: c.period.key,
              ...(c.period.start ? { periodStart: c.period.start.toISOString() } : {}),
              ...(c.period.end ? { periodEnd: c.period.end.toISOString() } : {}),
            }
          : {}),
      },
    })),
  );
}
