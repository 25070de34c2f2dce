// The scale seeder (`npm run cli -- scale-seed`, README "Data at scale"): fills one existing
// tenant with a production-sized data set in set-based SQL (INSERT ... SELECT over
// generate_series; activation codes are made by the domain's own generator and sent in batches
// through unnest), so a million licenses take minutes, not the hours row-by-row API calls would.
//
// What it writes, consistent with the domain rules:
//   - customers (CustomerUser), each license belonging to one;
//   - licenses (Entitlement, Published, 10 seats, expiring over the next two years: in force,
//     so the seats their sessions hold are valid) with one activation code each (the default key
//     issuance policy: template, alphabet, check symbol and service-wide lookupKey as issued);
//   - sessions, one device each (fingerprint stored as its SHA-256 hash), spread over the licenses
//     and 13 months; most ended (LeaseExpired or Released, revokedAt set), one round in ten over
//     the licenses holding a seat; EntitlementSessionCount is kept by the LicenseSession triggers themselves;
//   - on one license in ten: a monthly `api-calls` meter (MonitoredAsset + MeteredUsage) and a
//     `credits` balance (BalanceUsage) with a deposit per month in its history (BalanceHistoryEntry,
//     seq in order, totalCreditsAfter running);
//   - usage records (UsageRecord, Counted, one call each) spread over those meters and the last 13
//     months, and the meter periods (MeterPeriod) they add up to.
// Row ids are derived from the ordinal (md5 of a per-tenant name), so every step finds its parents
// without a join, and a re-run adds nothing twice (ON CONFLICT DO NOTHING).
import pg from "pg";
import {
  activationCodeLookupKey,
  generateActivationCode,
  normalizeActivationCode,
} from "../../server/domain/licensing/activation-codes/activation-code-format.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";

export type ScaleSeedSize = {
  entitlements: number;
  sessions: number;
  usageRecords: number;
  customers: number;
};
export type ScaleSeedStep = { table: string; rows: number; seconds: number; rowsPerSecond: number };

/** Licenses carrying a meter and a balance: one in ten. */
export const meteredLicenses = (entitlements: number) => Math.max(1, Math.floor(entitlements / 10));
/**
 * A row id derived from a name: its md5 with the version and variant digits of a random (v4)
 * UUID, as the API's schemas require of every id.
 */
const uuidOf = (name: string) =>
  `overlay(overlay(md5(${name}) placing '4' from 13) placing '8' from 17)::uuid`;
/** How the seeder names its rows' ids: from (kind, tenant, ordinal). */
export const scaleId = (kind: string) => uuidOf(`'${kind}:' || $1::text || ':' || g`);
/** The reference every seeded license carries: what `bench -- scale` looks for to reuse a data set. */
export const SCALE_REFERENCE = "scale-seed";
const CHUNK = 250_000;
const MONTHS = 13;

export async function scaleSeed(
  databaseUrl: string,
  tenantId: string,
  size: ScaleSeedSize,
  log: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<ScaleSeedStep[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const steps: ScaleSeedStep[] = [];
  const timed = async (table: string, work: () => Promise<number>) => {
    const started = performance.now();
    const rows = await work();
    const seconds = (performance.now() - started) / 1000;
    const step = {
      table,
      rows,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)),
    };
    steps.push(step);
    log(
      `${table}: ${rows.toLocaleString("en")} rows in ${step.seconds} s (${step.rowsPerSecond.toLocaleString("en")} rows/s)`,
    );
  };
  /** Runs `sql` over ordinals 1..total in chunks (one statement each): $1 tenant, $2 from, $3 to. */
  const chunked = async (total: number, sql: string, extra: unknown[] = []) => {
    let rows = 0;
    for (let from = 1; from <= total; from += CHUNK) {
      const to = Math.min(total, from + CHUNK - 1);
      rows += (await client.query(sql, [tenantId, from, to, ...extra])).rowCount ?? 0;
    }
    return rows;
  };
  try {
    const tenant = await client.query(`SELECT 1 FROM "Tenant" WHERE id = $1::uuid`, [tenantId]);
    if (!tenant.rowCount) throw new Error(`no tenant ${tenantId}`);
    // The seeder's own statements need no synchronous commit: a crash mid-seed is re-run.
    await client.query("SET synchronous_commit = off");
    const E = size.entitlements;
    const C = Math.max(1, size.customers);
    const M = meteredLicenses(E);
    const policy = defaultKeyIssuancePolicy();
    const entitlementOf = (ordinal: string) => uuidOf(`'entitlement:' || $1::text || ':' || (${ordinal})`);

    await timed("CustomerUser", () =>
      chunked(
        C,
        `INSERT INTO "CustomerUser" (id, "tenantId", "externalReference", origin, email, "firstName", "lastName", roles, "organizationIds", "createdAt", "updatedAt")
         SELECT ${scaleId("customer")}, $1::uuid, 'scale-customer-' || g, 'import', 'customer' || g || '@scale.example', 'First' || g, 'Last' || g,
                '{}', '{}', now() - (g % 400) * interval '1 day', now()
         FROM generate_series($2::int, $3::int) g ON CONFLICT DO NOTHING`,
      ),
    );
    await timed("Entitlement", () =>
      chunked(
        E,
        `INSERT INTO "Entitlement" (id, "tenantId", status, name, "subscriptionStatus", reference, "externalReference", "customerId", "customerKind",
                                    "customerContactEmail", "expirationDateTime", features, "activationPolicy", "keyIssuancePolicy", "claimBasedActivation",
                                    "productIds", "createdAt", "updatedAt")
         SELECT ${entitlementOf("g")}, $1::uuid, 'Published', 'Scale license ' || g, 'Active', '${SCALE_REFERENCE}', 'scale-' || g,
                ${uuidOf("'customer:' || $1::text || ':' || (1 + g % $4::int)")}, 'User', 'customer' || (1 + g % $4::int) || '@scale.example',
                now() + (1 + g % 730) * interval '1 day', '[]', '{}', $5::jsonb,
                '{"leaseTime": "PT1H", "gracePeriod": "P1D", "numberOfSeats": 10, "isFloatingLicense": false}', '{}',
                now() - (g % 395) * interval '1 day', now()
         FROM generate_series($2::int, $3::int) g ON CONFLICT DO NOTHING`,
        [C, JSON.stringify(policy)],
      ),
    );
    await timed("ActivationCode", async () => {
      let rows = 0;
      for (let from = 1; from <= E; from += CHUNK / 5) {
        const to = Math.min(E, from + CHUNK / 5 - 1);
        const codes: string[] = [];
        for (let g = from; g <= to; g++) codes.push(generateActivationCode(policy, null));
        const result = await client.query(
          `INSERT INTO "ActivationCode" (id, "tenantId", "entitlementId", code, "normalizedCode", "lookupKey", "normalizeStripSeparators",
                                         "normalizeCaseInsensitive", "normalizeMapConfusables", "createdAt", "updatedAt")
           SELECT ${scaleId("code")}, $1::uuid, ${entitlementOf("g")}, c.code, c.normalized, c.lookup, $6, $7, $8,
                  now() - (g % 395) * interval '1 day', now()
           FROM unnest($4::text[], $5::text[], $9::text[]) WITH ORDINALITY AS c (code, normalized, lookup, i), LATERAL (SELECT $2::int + c.i::int - 1 AS g) o
           WHERE o.g <= $3::int
           ON CONFLICT DO NOTHING`,
          [
            tenantId,
            from,
            to,
            codes,
            codes.map((c) => normalizeActivationCode(c, policy)),
            policy.normalizeStripSeparators,
            policy.normalizeCaseInsensitive,
            policy.normalizeMapConfusables,
            codes.map((c) => activationCodeLookupKey(c)),
          ],
        );
        rows += result.rowCount ?? 0;
      }
      return rows;
    });
    // Session k belongs to license 1 + k % E, is activated k/S of the way through the last 13
    // months, and has a device of its own.
    const sessionSpan = `(${MONTHS * 30} * interval '1 day') * (1 - g::float8 / $4::int)`;
    await timed("Device", () =>
      chunked(
        size.sessions,
        `INSERT INTO "Device" (id, "tenantId", "entitlementId", "fingerprintHash", "deviceName", "lastSeenAt", "createdAt", "updatedAt")
         SELECT ${scaleId("device")}, $1::uuid, ${entitlementOf("1 + g % $5::int")}, encode(sha256(convert_to('scale-fingerprint:' || $1::text || ':' || g, 'UTF8')), 'hex'),
                'Device ' || g, now() - ${sessionSpan} + interval '1 hour', now() - ${sessionSpan}, now()
         FROM generate_series($2::int, $3::int) g ON CONFLICT DO NOTHING`,
        [size.sessions, E],
      ),
    );
    // Ended sessions first; the sessions of every tenth round over the licenses hold a seat (with
    // five sessions per license: one each, the other four ended). The seat-count triggers act on
    // the unrevoked ones only.
    const sessionInsert = (held: boolean) =>
      `INSERT INTO "LicenseSession" (id, "tenantId", "entitlementId", "deviceId", "activationCodeId", "deviceName", "productIds", "activatedAt",
                                     "leaseExpiresAt", "graceExpiresAt", "seatHeldUntil", "lastContactAt", "revokedAt", "revocationReason", "createdAt", "updatedAt")
       SELECT ${scaleId("session")}, $1::uuid, ${entitlementOf("1 + g % $5::int")}, ${scaleId("device")},
              ${uuidOf("'code:' || $1::text || ':' || (1 + g % $5::int)")}, 'Device ' || g, '{}', a,
              ${held ? "now() + interval '1 hour'" : "a + interval '1 hour'"}, ${held ? "now() + interval '25 hours'" : "a + interval '25 hours'"},
              ${held ? "now() + interval '1 hour'" : "a + interval '1 hour'"}, ${held ? "now()" : "a"},
              ${held ? "NULL" : "a + interval '25 hours'"}, ${held ? "'None'" : "CASE WHEN g % 3 = 0 THEN 'Released' ELSE 'LeaseExpired' END"}, a, now()
       FROM generate_series($2::int, $3::int) g, LATERAL (SELECT now() - ${sessionSpan} AS a) t
       WHERE ${held ? "(g / $5::int) % 10 = 0" : "(g / $5::int) % 10 <> 0"}
       ON CONFLICT DO NOTHING`;
    await timed("LicenseSession (ended)", () =>
      chunked(size.sessions, sessionInsert(false), [size.sessions, E]),
    );
    await timed("LicenseSession (holding a seat; counted by the triggers)", () =>
      chunked(size.sessions, sessionInsert(true), [size.sessions, E]),
    );

    // Meters and balances on licenses 1..M (one in ten of the data set's licenses).
    const meterAsset = (ordinal: string) => uuidOf(`'meter:' || $1::text || ':' || (${ordinal})`);
    await timed("MonitoredAsset", () =>
      chunked(
        M,
        `INSERT INTO "MonitoredAsset" (id, "tenantId", "ownerKind", "ownerId", "entitlementId", "ownerStatus", "metricName", name, "createdAt", "updatedAt")
         SELECT CASE v.m WHEN 'api-calls' THEN ${meterAsset("g")} ELSE ${scaleId("balance-asset")} END,
                $1::uuid, 'Entitlement', ${entitlementOf("g")}, ${entitlementOf("g")}, 'Published', v.m, v.n, now(), now()
         FROM generate_series($2::int, $3::int) g, (VALUES ('api-calls', 'API calls'), ('credits', 'Credits')) AS v (m, n)
         ON CONFLICT DO NOTHING`,
      ),
    );
    await timed("MeteredUsage", () =>
      chunked(
        M,
        `INSERT INTO "MeteredUsage" (id, "tenantId", "monitoredAssetId", "usageTiers", "consumptionPeriod", "createdAt", "updatedAt")
         SELECT ${scaleId("metered")}, $1::uuid, ${meterAsset("g")}, '[]', 'month', now(), now()
         FROM generate_series($2::int, $3::int) g ON CONFLICT DO NOTHING`,
      ),
    );
    // One deposit of 100 credits a month for 13 months: the balance holds what its history adds up to.
    await timed("BalanceUsage", () =>
      chunked(
        M,
        `INSERT INTO "BalanceUsage" (id, "tenantId", "monitoredAssetId", name, "totalCredits", "initialCreditAmount", "usageQuota", "lastDeposit", "createdAt", "updatedAt")
         SELECT ${scaleId("balance")}, $1::uuid, ${scaleId("balance-asset")}, 'Credits', ${MONTHS * 100}, 100, '[]',
                date_trunc('month', now()), date_trunc('month', now()) - interval '${MONTHS - 1} months', now()
         FROM generate_series($2::int, $3::int) g ON CONFLICT DO NOTHING`,
      ),
    );
    await timed("BalanceHistoryEntry", async () => {
      const existing = await client.query(
        `SELECT 1 FROM "BalanceHistoryEntry" WHERE "tenantId" = $1::uuid AND "actorId" = 'scale-seed' LIMIT 1`,
        [tenantId],
      );
      if (existing.rowCount) return 0;
      return chunked(
        M,
        `INSERT INTO "BalanceHistoryEntry" (id, "tenantId", "balanceUsageId", "entitlementId", "metricName", operation, amount,
                                           "totalCreditsAfter", "creditsUsedAfter", "actorKind", "actorId", "createdAt")
         SELECT gen_random_uuid(), $1::uuid, ${scaleId("balance")}, ${entitlementOf("g")}, 'credits', 'Deposit', 100, 100 * (j + 1), 0,
                'system', 'scale-seed', date_trunc('month', now()) - (${MONTHS - 1} - j) * interval '1 month'
         FROM generate_series($2::int, $3::int) g, generate_series(0, ${MONTHS - 1}) j
         ORDER BY g, j`,
      );
    });
    // Record r: license 1 + r % M, captured r/U of the way through the last 13 months, uploaded a
    // minute later, one call of `api-calls` counted in its calendar month.
    const U = size.usageRecords;
    // Records the worker has since moved to the archive (docs/decisions.md "Ledger partitions") are
    // not made again; the check costs an index probe per record, so only when the archive has some.
    const archived = (
      await client.query(
        `SELECT EXISTS (SELECT 1 FROM "UsageRecordArchive" WHERE "tenantId" = $1::uuid) AS e`,
        [tenantId],
      )
    ).rows[0].e as boolean;
    const notArchived = archived
      ? `WHERE NOT EXISTS (SELECT 1 FROM "UsageRecordArchive" a WHERE a."tenantId" = $1::uuid AND a."transactionId" = g
           AND a."entitlementId" = ${entitlementOf("1 + g % $4::int")})`
      : "";
    await timed("UsageRecord", () =>
      chunked(
        U,
        `INSERT INTO "UsageRecord" ("tenantId", "entitlementId", "transactionId", "apiVersion", "creationDateTime", "eventName", "eventData", status,
                                    "monitoredAssetId", "metricName", amount, "periodKey", "receivedAt")
         SELECT $1::uuid, ${entitlementOf("1 + g % $4::int")}, g, 1, t.at, 'ApiCall', '{"metricName":"api-calls","amount":1}', 'Counted',
                ${meterAsset("1 + g % $4::int")}, 'api-calls', 1,
                'month:' || to_char(date_trunc('month', t.at, 'UTC') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), t.at + interval '1 minute'
         FROM generate_series($2::int, $3::int) g,
              LATERAL (SELECT now() - interval '1 hour' - (${MONTHS * 30} * interval '1 day') * (1 - g::float8 / $5::int) AS at) t
         ${notArchived}
         ON CONFLICT DO NOTHING`,
        [M, U],
      ),
    );
    await timed("MeterPeriod", async () => {
      const result = await client.query(
        `INSERT INTO "MeterPeriod" ("tenantId", "monitoredAssetId", "periodKey", "entitlementId", "metricName", "metricType", "periodStart", "periodEnd",
                                    usage, "reportedUsage", "recordCount", "lastRecordAt", "createdAt", "updatedAt")
         SELECT $1::uuid, "monitoredAssetId", "periodKey", "entitlementId", 'api-calls', 'CumulativeCounter', s, s + interval '1 month',
                sum(amount), sum(amount), count(*), max("creationDateTime"), min("receivedAt"), max("receivedAt")
         FROM (SELECT *, date_trunc('month', "creationDateTime", 'UTC') AS s
               FROM (SELECT * FROM "UsageRecord" UNION ALL SELECT * FROM "UsageRecordArchive") u
               WHERE "tenantId" = $1::uuid AND "eventName" = 'ApiCall' AND "transactionId" <= $2) r
         GROUP BY "monitoredAssetId", "periodKey", "entitlementId", s
         ON CONFLICT ("tenantId", "monitoredAssetId", "periodKey") DO UPDATE
           SET usage = EXCLUDED.usage + "MeterPeriod"."consumedUsage", "reportedUsage" = EXCLUDED."reportedUsage", "recordCount" = EXCLUDED."recordCount",
               "lastRecordAt" = EXCLUDED."lastRecordAt", "updatedAt" = EXCLUDED."updatedAt"`,
        [tenantId, U],
      );
      return result.rowCount ?? 0;
    });
    // VACUUM as well as ANALYZE: autovacuum would have vacuumed these inserts in production (its
    // insert threshold), setting the visibility map that index-only scans and bounded counts
    // rely on; a machine running with autovacuum off (CI's PostgreSQL here) never would.
    await timed("VACUUM (ANALYZE)", async () => {
      await client.query("VACUUM (ANALYZE)");
      return 0;
    });
    return steps;
  } finally {
    await client.end();
  }
}
