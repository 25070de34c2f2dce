// The reference client's usage commands run as a real process against the test server.
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { meteredLicense } from "../../helpers/metering.ts";
import { licenseClient as client } from "../../helpers/license-client.ts";

describe("license client: usage", () => {
  let tenant: TestTenant;
  let dir: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Client usage");
    dir = await mkdtemp(path.join(tmpdir(), "license-client-usage-"));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("usage record keeps records locally with monotonic transactionIds; usage upload sends them, drops what is acknowledged, and keeps them when the session is gone", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: { consumptionPeriod: "month" } }],
      features: [{ metricName: "api-calls", value: "100" }],
    });
    const stateFile = path.join(dir, "usage.json");
    const fingerprint = `fp-${randomUUID()}`;
    const activate = () =>
      client(
        "activate",
        "--url",
        baseUrl(),
        "--code",
        license.code,
        "--fingerprint",
        fingerprint,
        "--state-file",
        stateFile,
      );
    expect((await activate()).code).toBe(0);
    const ids: number[] = [];
    for (const amount of ["2", "3.5", "1"]) {
      const recorded = await client(
        "usage",
        "record",
        "--metric",
        "api-calls",
        "--amount",
        amount,
        "--state-file",
        stateFile,
      );
      expect(recorded.code, recorded.stderr).toBe(0);
      ids.push(recorded.json.recorded.transactionId);
    }
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(3);
    const uploaded = await client("usage", "upload", "--state-file", stateFile);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.json).toMatchObject({
      batches: 1,
      uploaded: 3,
      counted: 3,
      pending: 0,
      acknowledgedTransactionId: ids[2],
    });
    const store = JSON.parse(await readFile(path.join(dir, "usage.usage.json"), "utf8"));
    expect(store.pending).toEqual([]);

    const shown = await client("usage", "show", "--metric", "api-calls", "--state-file", stateFile);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json).toMatchObject({
      tracked: true,
      usage: { usage: 6.5, reportedUsage: 6.5 },
      pendingRecords: 0,
    });
    expect(
      (await client("usage", "show", "--metric", "nothing", "--state-file", stateFile)).json,
    ).toMatchObject({ tracked: false });

    // The session ends: records stay, and are uploaded (once) under the next session.
    await testDb().licenseSession.updateMany({
      where: { entitlementId: license.entitlement.id },
      data: { revokedAt: new Date(), revocationReason: "DeviceReset" },
    });
    await client("usage", "record", "--metric", "api-calls", "--amount", "4", "--state-file", stateFile);
    const lost = await client("usage", "upload", "--state-file", stateFile);
    expect(lost.code).toBe(3);
    expect(lost.stderr).toMatch(/stay in/);
    expect((await activate()).code).toBe(0);
    const again = await client("usage", "upload", "--state-file", stateFile);
    expect(again.json).toMatchObject({ counted: 1, pending: 0 });
    expect(
      (await client("usage", "show", "--metric", "api-calls", "--state-file", stateFile)).json.usage.usage,
    ).toBe(10.5);
    // Twelve client processes, each a Node start: the budget of the other client tests.
  }, 90_000);

  it("consume prints the decision; a refusal prints it too and exits 9", async () => {
    const license = await meteredLicense(tenant, {
      metrics: [{ metricName: "api-calls", metered: {} }],
      features: [{ metricName: "api-calls", value: "5" }],
    });
    const stateFile = path.join(dir, "consume.json");
    expect(
      (
        await client(
          "activate",
          "--url",
          baseUrl(),
          "--code",
          license.code,
          "--fingerprint",
          `fp-${randomUUID()}`,
          "--state-file",
          stateFile,
        )
      ).code,
    ).toBe(0);
    const preview = await client(
      "consume",
      "--metric",
      "api-calls",
      "--amount",
      "5",
      "--preview",
      "--state-file",
      stateFile,
    );
    expect(preview.json).toMatchObject({ allowed: true, committed: false });
    const ok = await client(
      "consume",
      "--metric",
      "api-calls",
      "--amount",
      "5",
      "--idempotency-key",
      "k1",
      "--state-file",
      stateFile,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json).toMatchObject({ allowed: true, committed: true, usage: 5 });
    const refused = await client(
      "consume",
      "--metric",
      "api-calls",
      "--amount",
      "1",
      "--state-file",
      stateFile,
    );
    expect(refused.code).toBe(9);
    expect(refused.json).toMatchObject({ allowed: false, reasonCode: "QuotaExceeded" });
  }, 60_000);
});
