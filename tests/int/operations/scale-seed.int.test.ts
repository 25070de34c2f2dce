// The scale seeder (scripts/seed/scale.ts, `npm run cli -- scale-seed`) on a small size: its rows
// obey the domain's rules (seat counts kept by the triggers, balances equal to their history,
// meter periods equal to their records), a seeded code activates through the real route, and a
// re-run adds nothing.
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { scaleSeed, type ScaleSeedStep } from "../../../scripts/seed/scale.ts";

const SIZE = { entitlements: 40, sessions: 200, usageRecords: 1300, customers: 8 };

describe("scale seeder", () => {
  let tenant: TestTenant;
  let steps: ScaleSeedStep[];
  const one = async <T>(sql: string): Promise<T> =>
    (await testDb().$queryRawUnsafe<T[]>(sql, tenant.tenantId))[0];

  beforeAll(async () => {
    tenant = await createTestTenant("Scale seed");
    steps = await scaleSeed(inject("databaseUrl"), tenant.tenantId, SIZE, () => undefined);
  });

  it("writes the asked rows, with a rate for each table", async () => {
    const rows = Object.fromEntries(steps.map((s) => [s.table, s.rows]));
    expect(rows).toMatchObject({
      CustomerUser: 8,
      Entitlement: 40,
      ActivationCode: 40,
      Device: 200,
      "LicenseSession (ended)": 161,
      "LicenseSession (holding a seat; counted by the triggers)": 39,
      MonitoredAsset: 8,
      MeteredUsage: 4,
      BalanceUsage: 4,
      BalanceHistoryEntry: 52,
      UsageRecord: 1300,
    });
    expect(steps.find((s) => s.table === "UsageRecord")!.rowsPerSecond).toBeGreaterThan(0);
  });

  it("keeps the seat counts, balances and meter periods consistent with their rows", async () => {
    expect(
      await one(
        `SELECT sum(unrevoked)::int AS sum, count(*)::int AS licenses FROM "EntitlementSessionCount" WHERE "tenantId" = $1::uuid`,
      ),
    ).toEqual({ sum: 39, licenses: 39 });
    expect(
      await one(
        `SELECT count(*)::int AS n FROM "LicenseSession" WHERE "tenantId" = $1::uuid AND "revokedAt" IS NULL AND "seatHeldUntil" > now()`,
      ),
    ).toEqual({ n: 39 });
    expect(
      await one(
        `SELECT count(*)::int AS balances, min("totalCredits")::int AS min, max("totalCredits")::int AS max,
                (SELECT max("totalCreditsAfter")::int FROM "BalanceHistoryEntry" h WHERE h."tenantId" = $1::uuid) AS "historyEnd"
         FROM "BalanceUsage" WHERE "tenantId" = $1::uuid`,
      ),
    ).toEqual({ balances: 4, min: 1300, max: 1300, historyEnd: 1300 });
    expect(
      await one(
        `SELECT sum(usage)::int AS usage, sum("recordCount")::int AS records FROM "MeterPeriod" WHERE "tenantId" = $1::uuid`,
      ),
    ).toEqual({ usage: 1300, records: 1300 });
    // Every device's fingerprint is stored as a SHA-256 hash, never in clear.
    expect(
      await one(
        `SELECT count(*)::int AS n FROM "Device" WHERE "tenantId" = $1::uuid AND "fingerprintHash" !~ '^[0-9a-f]{64}$'`,
      ),
    ).toEqual({ n: 0 });
  });

  it("issues codes the real activation route accepts, and the seat count follows", async () => {
    // License 1 holds no seat (its sessions are all ended).
    const { code, entitlementId } = await one<{ code: string; entitlementId: string }>(
      `SELECT c.code, c."entitlementId"::text AS "entitlementId" FROM "ActivationCode" c JOIN "Entitlement" e ON e.id = c."entitlementId"
       WHERE c."tenantId" = $1::uuid AND e."externalReference" = 'scale-1'`,
    );
    const res = await request("POST", "/api/v1/provision/activations/jwt", {
      body: { activationCode: code, fingerprint: `scale-test-${randomUUID()}` },
    });
    expect(res.status, res.text).toBe(200);
    const count = await testDb().$queryRawUnsafe<{ unrevoked: number }[]>(
      `SELECT unrevoked FROM "EntitlementSessionCount" WHERE "entitlementId" = $1::uuid`,
      entitlementId,
    );
    expect(count).toEqual([{ unrevoked: 1 }]);
  });

  it("adds nothing when run again", async () => {
    const again = await scaleSeed(inject("databaseUrl"), tenant.tenantId, SIZE, () => undefined);
    const added = Object.fromEntries(
      again
        .filter((s) => s.table !== "MeterPeriod" && s.table !== "VACUUM (ANALYZE)")
        .map((s) => [s.table, s.rows]),
    );
    expect(Object.values(added)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(await one(`SELECT count(*)::int AS n FROM "UsageRecord" WHERE "tenantId" = $1::uuid`)).toEqual({
      n: 1300,
    });
  });
});
