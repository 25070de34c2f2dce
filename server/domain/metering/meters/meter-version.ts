/**
 * The version of everything an entitlement's meter terms are computed from (its row, its add-on
 * grants and their add-ons, its monitored-asset copies with their metered usage and balances,
 * and the catalog entries that map features to its metrics), as one SQL expression. The hot
 * statements read it beside their locks, so a cached term (meter-terms.ts) is used only while it
 * is current: the per-process cache holds versioned data only (docs/architecture.md section 11).
 * Balance rows are not part of it: their counters change on every charge and are read under lock.
 * `$1` is the tenant id, `$2` the entitlement id.
 */
export const METER_VERSION_EXPRESSION = `concat_ws('|',
    (SELECT e."updatedAt"::text FROM "Entitlement" e WHERE e."tenantId" = $1 AND e.id = $2),
    (SELECT count(*) || '/' || coalesce(max(greatest(g."updatedAt", ao."updatedAt"))::text, '')
       FROM "AddOnGrant" g JOIN "AddOn" ao ON ao."tenantId" = g."tenantId" AND ao.id = g."addOnId"
      WHERE g."tenantId" = $1 AND g."entitlementId" = $2),
    (SELECT count(*) || '/' || count(mu.id) || '/' || count(bu.id) || '/' || coalesce(max(greatest(a."updatedAt", mu."updatedAt"))::text, '')
       FROM "MonitoredAsset" a
       LEFT JOIN "MeteredUsage" mu ON mu."tenantId" = a."tenantId" AND mu."monitoredAssetId" = a.id
       LEFT JOIN "BalanceUsage" bu ON bu."tenantId" = a."tenantId" AND bu."monitoredAssetId" = a.id
      WHERE a."tenantId" = $1 AND a."entitlementId" = $2),
    (SELECT count(*) || '/' || coalesce(max(f."updatedAt")::text, '')
       FROM "FeatureCatalogEntry" f
      WHERE f."tenantId" = $1 AND f."metricName" IN
        (SELECT a."metricName" FROM "MonitoredAsset" a WHERE a."tenantId" = $1 AND a."entitlementId" = $2)))`;

export const METER_VERSION_SQL = `SELECT ${METER_VERSION_EXPRESSION} AS version`;
