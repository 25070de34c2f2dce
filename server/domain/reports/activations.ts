import { z } from "zod";
import type { DomainContext } from "../context.ts";
import { queryReport, streamRows } from "../../db/report-queries.ts";
import {
  bucketBounds,
  periodBuckets,
  resolvePeriod,
  exportFilename,
  seriesHeader,
  ZReportBucket,
  ZReportSeriesHeader,
  ZReportSeriesQuery,
  type TReportSeriesQuery,
} from "./report-period.ts";
import { csvExport } from "./report-export.ts";

/**
 * Activations over time (docs/decisions.md "Reports"): sessions started in each bucket, with the
 * distinct devices and licenses behind them, how many were offline activations, and how many were
 * on trials and on anonymous tries. A re-activation that returns an existing session is not a new
 * activation (it starts no session).
 */
export const ZActivationsReportQuery = ZReportSeriesQuery;

/** Sessions started in the period: $1 tenant, $2 from, $3 to, $4 entitlement, $5 product. */
const STARTED = `
  FROM "LicenseSession" ls
  JOIN "Entitlement" en ON en.id = ls."entitlementId" AND en."tenantId" = $1::uuid
  WHERE ls."tenantId" = $1::uuid AND ls."activatedAt" >= $2::timestamptz AND ls."activatedAt" < $3::timestamptz
    AND ($4::uuid IS NULL OR ls."entitlementId" = $4::uuid)
    AND ($5::uuid IS NULL OR ls."productIds" @> ARRAY[$5::uuid])`;

const COUNTS = `count(*)::int AS activations,
  count(DISTINCT ls."deviceId")::int AS devices,
  count(DISTINCT ls."entitlementId")::int AS entitlements,
  (count(*) FILTER (WHERE ls."activationKind" = 'Offline'))::int AS offline,
  (count(*) FILTER (WHERE en."isEntitlementTrial"))::int AS trial,
  (count(*) FILTER (WHERE en."isAnonymousTry"))::int AS "anonymousTry"`;

/** Per bucket ($6 the width_bucket bounds) and, as bucket 0, the whole period (distinct counts are not additive). */
export const ACTIVATIONS_BY_BUCKET_SQL = `
  SELECT coalesce(width_bucket(ls."activatedAt", $6::timestamptz[]), 0) AS bucket, ${COUNTS}
  ${STARTED}
  GROUP BY GROUPING SETS ((width_bucket(ls."activatedAt", $6::timestamptz[])), ())`;

export const ACTIVATION_LINES_SQL = `
  SELECT ls.id AS "sessionId", ls."activatedAt", ls."entitlementId", en.name AS "entitlementName", ls."deviceId",
         ls."deviceName", ls."activationKind", en."isEntitlementTrial", en."isAnonymousTry", ls."revokedAt",
         ls."revocationReason"
  ${STARTED}
  ORDER BY ls."activatedAt", ls.id`;

type CountRow = {
  bucket: number;
  activations: number;
  devices: number;
  entitlements: number;
  offline: number;
  trial: number;
  anonymousTry: number;
};

const ZCounts = z.object({
  activations: z.number().int(),
  /** Distinct devices that started a session. */
  devices: z.number().int(),
  /** Distinct licenses activated. */
  entitlements: z.number().int(),
  offline: z.number().int(),
  trial: z.number().int(),
  anonymousTry: z.number().int(),
});

export const ZActivationsReport = ZReportSeriesHeader.extend({
  buckets: z.array(ZReportBucket.extend(ZCounts.shape)),
  totals: ZCounts,
});
export type TActivationsReport = z.infer<typeof ZActivationsReport>;

const counts = ({ bucket: _b, ...row }: CountRow) => row;
const none = { activations: 0, devices: 0, entitlements: 0, offline: 0, trial: 0, anonymousTry: 0 };

/** GET /admin/reports/activations. */
export async function activationsReport(
  ctx: DomainContext,
  query: TReportSeriesQuery,
): Promise<TActivationsReport> {
  const period = resolvePeriod(query);
  const buckets = periodBuckets(period, query.interval);
  const rows = await queryReport<CountRow>(ACTIVATIONS_BY_BUCKET_SQL, [
    ctx.tenantId,
    period.from,
    period.to,
    query.entitlementId ?? null,
    query.productId ?? null,
    bucketBounds(buckets),
  ]);
  const byBucket = new Map(rows.map((r) => [Number(r.bucket), r]));
  return {
    ...seriesHeader(period, query),
    buckets: buckets.map((b, i) => ({
      from: b.from.toISOString(),
      to: b.to.toISOString(),
      ...(byBucket.has(i + 1) ? counts(byBucket.get(i + 1)!) : none),
    })),
    totals: byBucket.has(0) ? counts(byBucket.get(0)!) : none,
  };
}

type ActivationLine = {
  sessionId: string;
  activatedAt: Date;
  entitlementId: string;
  entitlementName: string;
  deviceId: string;
  deviceName: string | null;
  activationKind: string;
  isEntitlementTrial: boolean;
  isAnonymousTry: boolean;
  revokedAt: Date | null;
  revocationReason: string;
};

/** GET /admin/reports/activations/csv: one line per session started in the period, oldest first. */
export const activationsExport = csvExport<TReportSeriesQuery>({
  key: "activations",
  query: ZActivationsReportQuery,
  columns: [
    "sessionId",
    "activatedAt",
    "entitlementId",
    "entitlementName",
    "deviceId",
    "deviceName",
    "activationKind",
    "isEntitlementTrial",
    "isAnonymousTry",
    "revokedAt",
    "revocationReason",
  ],
  filename: (query) => exportFilename("activations", query),
  async *rows(ctx, query) {
    const { from, to } = resolvePeriod(query);
    const values = [ctx.tenantId, from, to, query.entitlementId ?? null, query.productId ?? null];
    for await (const batch of streamRows<ActivationLine>(ACTIVATION_LINES_SQL, values))
      yield batch.map((l) => ({
        ...l,
        activatedAt: l.activatedAt.toISOString(),
        revokedAt: l.revokedAt?.toISOString() ?? null,
      }));
  },
});
