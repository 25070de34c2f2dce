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
import { microsToNumber, toMicros } from "./report-sql.ts";
import { csvExport } from "./report-export.ts";

/**
 * Value delivered per feature (docs/decisions.md "Reports"): the usage of each feature catalog
 * entry's metric (docs/api.md: `metricName`, the metric a Metered feature reports under) × its
 * `valueScore`. Usage is read from the metering ledger (docs/architecture.md section 13): committed consumes
 * (`ConsumeEntry`, at their commit) and counted uploaded records (`UsageRecord` `Counted`, at
 * their creationDateTime) on the licenses' meters of that metric; for a level metric (`Gauge`,
 * `Maximum`) uploaded readings are levels, not increments, so a meter counts its highest reading
 * in the span instead of their sum. The valueScore is read when the report is generated, so a
 * change re-values history; a null valueScore contributes nothing and the feature is listed apart
 * with its usage. `entitlementId` narrows to one license's meters, `productId` to that product's
 * features.
 */
export const ZValueDeliveredReportQuery = ZReportSeriesQuery;

/**
 * The live usage records and the archived ones (docs/decisions.md "Ledger partitions"): each
 * branch gets the outer conditions, so the archive's months outside the period are not read.
 */
const USAGE_RECORDS = `(
    SELECT "tenantId", "monitoredAssetId", "creationDateTime", amount, status FROM "UsageRecord"
    UNION ALL
    SELECT "tenantId", "monitoredAssetId", "creationDateTime", amount, status FROM "UsageRecordArchive")`;

/**
 * Usage and value per feature: per bucket ($6 the width_bucket bounds) and, as bucket 0, the whole
 * period (a level metric's highest reading does not add up across buckets). $1 tenant, $2 from,
 * $3 to, $4 entitlement, $5 product. Increments are summed per metric and product straight away
 * (a few groups however many meters); only level readings are first reduced per meter. A meter
 * serves the entries of its metric whose product is its own (or either has none). Every live entry with a metric is answered, used or not; a deleted
 * one only when it has usage in the period.
 */
export const VALUE_BY_FEATURE_SQL = `
  WITH features AS (
    SELECT f.id, f."featureCode", f.name, f.units, f."metricName", f."productId", f."valueScore", f."isDeleted"
    FROM "FeatureCatalogEntry" f
    WHERE f."tenantId" = $1::uuid AND f."metricName" IS NOT NULL AND ($5::uuid IS NULL OR f."productId" = $5::uuid)
  ),
  meters AS (
    SELECT ma.id, ma."metricName", ma."productId", ma."metricType" IN ('Gauge', 'Maximum') AS level
    FROM "MonitoredAsset" ma
    WHERE ma."tenantId" = $1::uuid AND ma."ownerKind" = 'Entitlement'
      AND ($4::uuid IS NULL OR ma."entitlementId" = $4::uuid)
      AND ma."metricName" IN (SELECT "metricName" FROM features)
  ),
  increments AS (
    SELECT m."metricName", m."productId", ce."createdAt" AS t, ce.amount
    FROM "ConsumeEntry" ce JOIN meters m ON m.id = ce."monitoredAssetId"
    WHERE ce."tenantId" = $1::uuid AND ce."createdAt" >= $2::timestamptz AND ce."createdAt" < $3::timestamptz
    UNION ALL
    SELECT m."metricName", m."productId", ur."creationDateTime", ur.amount
    FROM ${USAGE_RECORDS} ur JOIN meters m ON m.id = ur."monitoredAssetId" AND NOT m.level
    WHERE ur."tenantId" = $1::uuid AND ur.status = 'Counted'
      AND ur."creationDateTime" >= $2::timestamptz AND ur."creationDateTime" < $3::timestamptz
  ),
  levels AS (
    SELECT ur."monitoredAssetId" AS mid, m."metricName", m."productId", ur."creationDateTime" AS t, ur.amount
    FROM ${USAGE_RECORDS} ur JOIN meters m ON m.id = ur."monitoredAssetId" AND m.level
    WHERE ur."tenantId" = $1::uuid AND ur.status = 'Counted'
      AND ur."creationDateTime" >= $2::timestamptz AND ur."creationDateTime" < $3::timestamptz
  ),
  usage AS (
    SELECT "metricName", "productId", coalesce(width_bucket(t, $6::timestamptz[]), 0) AS bucket, sum(amount) AS usage
    FROM increments
    GROUP BY GROUPING SETS (("metricName", "productId", width_bucket(t, $6::timestamptz[])), ("metricName", "productId"))
    UNION ALL
    SELECT "metricName", "productId", bucket, sum(peak)
    FROM (
      SELECT mid, "metricName", "productId", coalesce(width_bucket(t, $6::timestamptz[]), 0) AS bucket, max(amount) AS peak
      FROM levels
      GROUP BY GROUPING SETS ((mid, "metricName", "productId", width_bucket(t, $6::timestamptz[])),
                              (mid, "metricName", "productId"))
    ) per_meter
    GROUP BY 1, 2, 3
  ),
  per_feature AS (
    SELECT f.id AS fid, u.bucket, sum(u.usage) AS usage
    FROM usage u
    JOIN features f ON f."metricName" = u."metricName"
      AND (f."productId" IS NULL OR u."productId" IS NULL OR f."productId" = u."productId")
    GROUP BY 1, 2
  )
  SELECT f.id AS "featureCatalogId", f."featureCode", f.name, f.units, f."metricName", f."productId", f."valueScore",
         coalesce(u.bucket, 0)::int AS bucket,
         round(coalesce(u.usage, 0), 6)::text AS usage,
         round(coalesce(u.usage, 0) * f."valueScore"::numeric, 6)::text AS value
  FROM features f LEFT JOIN per_feature u ON u.fid = f.id
  WHERE NOT f."isDeleted" OR u.fid IS NOT NULL`;

/** The CSV's lines: one per feature and bucket with usage, in bucket then feature-code order. */
export const VALUE_LINES_SQL = `
  SELECT ($6::timestamptz[])[v.bucket] AS "from", ($6::timestamptz[])[v.bucket + 1] AS "to", v.*
  FROM (${VALUE_BY_FEATURE_SQL}) v
  WHERE v.bucket > 0
  ORDER BY v.bucket, v."featureCode", v."featureCatalogId"`;

type FeatureRow = {
  featureCatalogId: string;
  featureCode: string;
  name: string;
  units: string | null;
  metricName: string;
  productId: string | null;
  valueScore: number | null;
  bucket: number;
  usage: string;
  value: string | null;
};

const ZFeatureRef = z.object({
  featureCatalogId: z.string().uuid(),
  featureCode: z.string(),
  name: z.string(),
  units: z.string().nullable(),
  metricName: z.string(),
  productId: z.string().uuid().nullable(),
  /** Units of the metric used in the period (6 decimals). */
  usage: z.number(),
});

export const ZValueDeliveredReport = ZReportSeriesHeader.extend({
  /** Value delivered in the period by every valued feature. */
  totalValue: z.number(),
  /** Features with a valueScore: usage × valueScore, most value first. */
  features: z.array(
    ZFeatureRef.extend({
      valueScore: z.number(),
      value: z.number(),
      /** value / totalValue (6 decimals); 0 when nothing was delivered. */
      share: z.number(),
    }),
  ),
  /** Features whose valueScore is null (not valued): their usage, no value. */
  unvaluedFeatures: z.array(ZFeatureRef),
  buckets: z.array(
    ZReportBucket.extend({
      value: z.number(),
      /** Features with usage in the bucket; `value` null for an unvalued feature. */
      features: z.array(
        z.object({ featureCatalogId: z.string().uuid(), usage: z.number(), value: z.number().nullable() }),
      ),
    }),
  ),
});
export type TValueDeliveredReport = z.infer<typeof ZValueDeliveredReport>;

const number6 = (text: string) => microsToNumber(toMicros(text), 6);

const featureRef = (r: FeatureRow) => ({
  featureCatalogId: r.featureCatalogId,
  featureCode: r.featureCode,
  name: r.name,
  units: r.units,
  metricName: r.metricName,
  productId: r.productId,
  usage: number6(r.usage),
});

/** GET /admin/reports/value-delivered. */
export async function valueDeliveredReport(
  ctx: DomainContext,
  query: TReportSeriesQuery,
): Promise<TValueDeliveredReport> {
  const period = resolvePeriod(query);
  const buckets = periodBuckets(period, query.interval);
  const rows = await queryReport<FeatureRow>(VALUE_BY_FEATURE_SQL, [
    ctx.tenantId,
    period.from,
    period.to,
    query.entitlementId ?? null,
    query.productId ?? null,
    bucketBounds(buckets),
  ]);
  const totals = rows.filter((r) => r.bucket === 0);
  const valued = totals.filter((r) => r.valueScore !== null);
  const total = valued.reduce((sum, r) => sum + toMicros(r.value), 0n);
  const share = (micros: bigint) =>
    total > 0n ? Math.round((Number(micros) / Number(total)) * 1e6) / 1e6 : 0;

  const byBucket = new Map<number, FeatureRow[]>();
  for (const r of rows) if (r.bucket > 0) byBucket.set(r.bucket, [...(byBucket.get(r.bucket) ?? []), r]);
  const byCode = (a: FeatureRow, b: FeatureRow) => a.featureCode.localeCompare(b.featureCode);

  return {
    ...seriesHeader(period, query),
    totalValue: microsToNumber(total, 6),
    features: valued
      .map((r) => ({
        ...featureRef(r),
        valueScore: r.valueScore!,
        value: number6(r.value!),
        share: share(toMicros(r.value)),
      }))
      .sort((a, b) => b.value - a.value || a.featureCode.localeCompare(b.featureCode)),
    unvaluedFeatures: totals
      .filter((r) => r.valueScore === null)
      .sort(byCode)
      .map(featureRef),
    buckets: buckets.map((b, i) => {
      const inBucket = (byBucket.get(i + 1) ?? []).sort(byCode);
      return {
        from: b.from.toISOString(),
        to: b.to.toISOString(),
        value: microsToNumber(
          inBucket.reduce((sum, r) => sum + toMicros(r.value), 0n),
          6,
        ),
        features: inBucket.map((r) => ({
          featureCatalogId: r.featureCatalogId,
          usage: number6(r.usage),
          value: r.value === null ? null : number6(r.value),
        })),
      };
    }),
  };
}

type ValueLine = FeatureRow & { from: Date; to: Date };

/** GET /admin/reports/value-delivered/csv: one line per feature and bucket with usage. */
export const valueDeliveredExport = csvExport<TReportSeriesQuery>({
  key: "value-delivered",
  query: ZValueDeliveredReportQuery,
  columns: [
    "from",
    "to",
    "featureCatalogId",
    "featureCode",
    "featureName",
    "productId",
    "metricName",
    "units",
    "valueScore",
    "usage",
    "value",
  ],
  filename: (query) => exportFilename("value-delivered", query),
  async *rows(ctx, query) {
    const period = resolvePeriod(query);
    const values = [
      ctx.tenantId,
      period.from,
      period.to,
      query.entitlementId ?? null,
      query.productId ?? null,
      bucketBounds(periodBuckets(period, query.interval)),
    ];
    for await (const batch of streamRows<ValueLine>(VALUE_LINES_SQL, values))
      yield batch.map((l) => ({
        from: l.from.toISOString(),
        to: l.to.toISOString(),
        featureCatalogId: l.featureCatalogId,
        featureCode: l.featureCode,
        featureName: l.name,
        productId: l.productId,
        metricName: l.metricName,
        units: l.units,
        valueScore: l.valueScore,
        usage: l.usage,
        value: l.value,
      }));
  },
});
