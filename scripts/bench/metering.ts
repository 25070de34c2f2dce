// Metering benchmark (docs/architecture.md section 11): the production build on a fresh database, one tenant
// with 16 licenses, each metering `api-calls` per day (a metered meter, an allowance far above the
// load), then autocannon at 64 connections for 10 s each on consume (one license; spread over 16)
// and on session usage upload (batches of 100 records), then the same work in the bare
// node:http + pg + jose baseline (scripts/bench/metering-baseline-server.ts).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import type { AutocannonRequest } from "autocannon";
import type { Prisma } from "../../server/db/generated/client.ts";
import { createDb, type Db } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { periodOf } from "../../server/domain/metering/periods/period.ts";
import { startTestServer, TEST_APP_SECRET, TEST_RATE_LIMITS, type TestServer } from "../../tests/helpers/test-server.ts";
import { repoRoot } from "../lib/runtime-env.ts";
import { withCpu, type CpuShare } from "./cpu.ts";
import { minimalRatio, minimalSessionCalls, startMinimalBaseline, type MinimalLoad } from "./minimal-baseline.ts";
import { open } from "../../server/crypto/secret-box.ts";
import { load, type LoadResult } from "./load.ts";

type Measured = LoadResult & { cpu?: CpuShare; loadAverage: number[] };

export type MeteringBenchResult = {
  scenario: "metering";
  consumeOneLicense: Measured;
  consumeSpread: Measured & { licenses: number };
  usageUpload: Measured & { recordsPerBatch: number; recordsPerSecond: number };
  baseline: { consumeOneLicense: Measured; consumeSpread: Measured; usageUpload: Measured & { recordsPerSecond: number } };
  /** Our requests/s divided by the baseline's, per scenario. */
  vsBaseline: { consumeOneLicense: number; consumeSpread: number; usageUpload: number };
  /** The minimal-work baseline's consume (one conditional UPDATE of a counter), and our ratio to it. */
  minimal: { consumeOneLicense: MinimalLoad; consumeSpread: MinimalLoad };
  vsMinimal: { consumeOneLicense: number; consumeSpread: number };
  /** The one license's ledger after both consume loads: every committed consume is one entry. */
  exactness: { ledgerEntries: number; meterUsage: number; consumeCount: number; exact: boolean };
  targets: { consumeSpread: number; consumeOneLicense: number; usageRecordsPerSecond: number };
};

const LICENSES = 16;
const BATCH = 100;
const USAGE = "/api/v1/provision/usage";
const json = { "content-type": "application/json" };
const round2 = (n: number) => Math.round(n * 100) / 100;
const load1 = () => loadavg().map((n) => round2(n));

type Session = { token: string; sessionId: string };
type License = { entitlementId: string; code: string; assetId: string; meteredUsageId: string; anchorAt: Date };
export type MeteringSeed = {
  tenantId: string;
  licenses: License[];
  /** 64 sessions of the first license. */
  one: Session[];
  /** 4 sessions of each of the 16 licenses. */
  spread: Session[];
};

/**
 * The bench's data on a running server: one tenant, 16 licenses metering `api-calls` per day,
 * 64 sessions on the first and 4 on each, and a warm-up consume per session (terms cache,
 * prepared statements). Shared with scripts/profile-runtime.ts, which profiles the same loads.
 */
export async function seedMetering(server: TestServer, db: Db, log: (line: string) => void, tenantId?: string): Promise<MeteringSeed> {
    const tenant = tenantId ? { tenantId } : await createTenant(db, { name: "Bench metering" });
    const scopes = ["provision.activation-code.*"];
    const { client, clientSecret } = await createClient(systemContext(db, tenant.tenantId, "bench"), {
      name: "bench",
      kind: "admin",
      scopes,
    });
    const tokenRes = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: clientSecret, scope: scopes.join(" ") }),
    });
    const adminToken = ((await tokenRes.json()) as { access_token: string }).access_token;
    const scoped = tenantDb(db, tenant.tenantId);

    log(`seeding ${LICENSES} metered licenses`);
    const featureCode = "BENCH_API_CALLS";
    // Skipped when present: `bench -- scale` runs again in the tenant of its kept data set.
    await scoped.featureCatalogEntry.createMany({
      data: [{ tenantId: tenant.tenantId, featureCode, activeCodeKey: featureCode, name: "API calls", metricName: "api-calls", featureType: "Metered", lifecycleStatus: "Published" }],
      skipDuplicates: true,
    });
    const licenses: { entitlementId: string; code: string; assetId: string; meteredUsageId: string; anchorAt: Date }[] = [];
    for (let i = 0; i < LICENSES; i++) {
      const entitlement = await scoped.entitlement.create({
        data: {
          tenantId: tenant.tenantId,
          name: `Bench metered ${i}`,
          features: [
            { id: randomUUID(), featureCode, productId: randomUUID(), moduleName: null, name: "API calls", description: "", value: "1000000000", isEnabled: true, isAvailableDuringTrialPeriod: true, isAvailableDuringGracePeriod: true, isPaidFeature: false, canModifyValueOnEntitlement: false, includeInLicenseToken: false, meteredAssetId: null, featureExpiration: null, catalogLifecycleStatus: "Published" },
          ] as Prisma.InputJsonValue,
          activationPolicy: {},
          claimBasedActivation: { leaseTime: "PT2H", gracePeriod: "P1D", numberOfSeats: 1000, isFloatingLicense: false },
          keyIssuancePolicy: defaultKeyIssuancePolicy(),
          productIds: [],
        },
      });
      const asset = await scoped.monitoredAsset.create({
        data: { tenantId: tenant.tenantId, ownerKind: "Entitlement", ownerId: entitlement.id, entitlementId: entitlement.id, ownerStatus: "Published", metricName: "api-calls", name: "API calls" },
      });
      const metered = await scoped.meteredUsage.create({
        data: { tenantId: tenant.tenantId, monitoredAssetId: asset.id, consumptionPeriod: "day", usageTiers: [] },
      });
      const issued = await fetch(`${server.baseUrl}/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`, {
        method: "POST",
        headers: { ...json, authorization: `Bearer ${adminToken}` },
        body: "{}",
      });
      const code = ((await issued.json()) as { codes: { code: string }[] }).codes[0].code;
      licenses.push({ entitlementId: entitlement.id, code, assetId: asset.id, meteredUsageId: metered.id, anchorAt: entitlement.createdAt });
    }

    const activate = async (code: string) => {
      const res = await fetch(`${server.baseUrl}/api/v1/provision/activations/jwt`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ activationCode: code, fingerprint: `bench-${randomUUID()}` }),
      });
      if (!res.ok) throw new Error(`activation: ${res.status} ${await res.text()}`);
      const token = (await res.json()) as string;
      const sessionId = (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { sub: string }).sub;
      return { token, sessionId };
    };
    log("activating 64 sessions on one license and 4 on each of the 16");
    const one = await Promise.all(Array.from({ length: 64 }, () => activate(licenses[0].code)));
    const spread = (await Promise.all(licenses.map((l) => Promise.all(Array.from({ length: 4 }, () => activate(l.code)))))).flat();

    log("warming up (terms cache, prepared statements)");
    for (const s of [...one.slice(0, 8), ...spread])
      await fetch(`${server.baseUrl}${USAGE}/consume/${s.sessionId}/api-calls?amount=1`, { method: "POST", headers: { authorization: `Bearer ${s.token}` } });

    return { tenantId: tenant.tenantId, licenses, one, spread };
}

const consumePath = (s: { sessionId: string }) => `${USAGE}/consume/${s.sessionId}/api-calls?amount=1`;
const uploadPath = (s: { sessionId: string }) => `${USAGE}/sessions/${s.sessionId}/transactions`;

/** Requests cycling through sessions, each with its own token (and body). */
export function cycle(
  sessions: Session[],
  path: (s: { sessionId: string }) => string,
  body?: (s: { sessionId: string }) => string,
): AutocannonRequest {
  let next = 0;
  return {
    method: "POST",
    setupRequest: (req) => {
      const s = sessions[next++ % sessions.length];
      return { ...req, path: path(s), headers: { ...json, authorization: `Bearer ${s.token}` }, ...(body ? { body: body(s) } : {}) };
    },
  };
}

let transactionId = Date.now() * 1000;
/** A batch of BATCH new records of one call each, as a client's local store uploads them. */
export const usageBatch = (s: { sessionId: string }) =>
  JSON.stringify(
    Array.from({ length: BATCH }, () => ({
      transactionId: transactionId++,
      sessionId: s.sessionId,
      apiVersion: 1,
      creationDateTime: new Date().toISOString(),
      eventName: "ApiCall",
      eventData: '{"metricName":"api-calls","amount":1}',
    })),
  );

/** The profiler's loads (scripts/profile-runtime.ts): consume spread over the 16 licenses, and upload. */
export const meteringLoads = (seed: MeteringSeed) => ({
  consume: cycle(seed.spread, consumePath),
  upload: cycle(seed.spread, uploadPath, usageBatch),
});

export async function runMeteringBench(
  options: {
    log?: (line: string) => void;
    /** `bench -- scale`: an existing, migrated database (kept) and its tenant, instead of fresh ones. */
    databaseUrl?: string;
    tenantId?: string;
  } = {},
): Promise<MeteringBenchResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:metering] ${line}\n`));
  log("starting the production server on a fresh database");
  const server = await startTestServer({ databaseUrl: options.databaseUrl });
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  let baselineChild: ReturnType<typeof spawn> | undefined;
  try {
    const { tenantId, licenses, one, spread } = await seedMetering(server, db, log, options.tenantId);
    const scoped = tenantDb(db, tenantId);
    const port = Number(new URL(server.baseUrl).port);
    const measure = async (url: string, request: AutocannonRequest, cpuPort?: number): Promise<Measured> => {
      const before = load1();
      const result = cpuPort ? await withCpu(server.databaseUrl, cpuPort, () => load(url, request)) : await load(url, request);
      return { ...result, loadAverage: [...before, ...load1()] };
    };
    log("consume, one license");
    const consumeOneLicense = await measure(server.baseUrl, cycle(one, consumePath), port);
    log(JSON.stringify(consumeOneLicense));
    log(`consume, spread over ${LICENSES} licenses`);
    const consumeSpread = await measure(server.baseUrl, cycle(spread, consumePath), port);
    log(JSON.stringify(consumeSpread));
    log(`usage upload, batches of ${BATCH}`);
    const usageUpload = await measure(server.baseUrl, cycle(spread, uploadPath, usageBatch), port);
    log(JSON.stringify(usageUpload));

    const ledgerEntries = await scoped.consumeEntry.count({ where: { entitlementId: licenses[0].entitlementId } });
    const periods = await scoped.meterPeriod.findMany({ where: { entitlementId: licenses[0].entitlementId } });
    const meterUsage = periods.reduce((s, p) => s + p.consumedUsage.toNumber(), 0);
    const consumeCount = periods.reduce((s, p) => s + p.consumeCount, 0);
    const exactness = { ledgerEntries, meterUsage, consumeCount, exact: ledgerEntries === meterUsage && ledgerEntries === consumeCount };
    log(`exactness: ${JSON.stringify(exactness)}`);

    log("baseline (node:http + pg + jose, the same statements)");
    const jwks = await (await fetch(`${server.baseUrl}/api/v1/provision/tenants/${tenantId}/jwks.json`)).text();
    const now = new Date();
    const meters = Object.fromEntries(
      licenses.map((l) => {
        const period = periodOf({ consumptionPeriod: "day", periodAnchor: "Calendar" }, l.anchorAt, now);
        return [l.entitlementId, { tenantId, assetId: l.assetId, meteredUsageId: l.meteredUsageId, periodKey: period.key, periodStart: period.start!.toISOString(), periodEnd: period.end!.toISOString() }];
      }),
    );
    baselineChild = spawn(process.execPath, ["--import", "tsx", "scripts/bench/metering-baseline-server.ts"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: server.databaseUrl, NODE_ENV: "production", RATE_LIMITS: process.env.RATE_LIMITS ?? TEST_RATE_LIMITS, BASELINE_JWKS: jwks, BASELINE_METERS: JSON.stringify(meters) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const child = baselineChild;
    const baselinePort = await new Promise<number>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`baseline server exited with ${code}`)));
      createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
    });
    const baseUrl = `http://127.0.0.1:${baselinePort}`;
    const baseline = {
      consumeOneLicense: await measure(baseUrl, cycle(one, (s) => `/consume/${s.sessionId}?amount=1`)),
      consumeSpread: await measure(baseUrl, cycle(spread, (s) => `/consume/${s.sessionId}?amount=1`)),
      usageUpload: await measure(baseUrl, cycle(spread, (s) => `/upload/${s.sessionId}`, usageBatch)),
    };
    log(`baseline: ${JSON.stringify(baseline)}`);

    log("minimal-work baseline: consume as one conditional UPDATE of a counter");
    const key = await db.signingKey.findFirstOrThrow({ where: { tenantId, status: "Active" }, orderBy: { createdAt: "desc" } });
    const sessionLicense = new Map<string, number>();
    one.forEach((s) => sessionLicense.set(s.sessionId, 0));
    spread.forEach((s, i) => sessionLicense.set(s.sessionId, Math.floor(i / 4)));
    const minimalServer = await startMinimalBaseline(server.databaseUrl, {
      tenantId,
      kid: key.kid,
      privateJwk: JSON.parse(open(key.privateKeyEncrypted)) as Record<string, unknown>,
      licenses: LICENSES,
      sessions: [...sessionLicense].map(([sessionId, license]) => ({ sessionId, license })),
    });
    let minimal: MeteringBenchResult["minimal"];
    try {
      await minimalServer.smoke("POST", `/consume/${one[0].sessionId}?amount=1`, { authorization: `Bearer ${one[0].token}` });
      minimal = {
        consumeOneLicense: await minimalServer.measure(minimalSessionCalls("consume", one, "?amount=1")),
        consumeSpread: await minimalServer.measure(minimalSessionCalls("consume", spread, "?amount=1")),
      };
      log(`minimal: ${JSON.stringify(minimal)}`);
    } finally {
      await minimalServer.stop();
    }

    const ratio = (a: LoadResult, b: LoadResult) => (b.requestsPerSecond ? round2(a.requestsPerSecond / b.requestsPerSecond) : 0);
    return {
      scenario: "metering",
      consumeOneLicense,
      consumeSpread: { ...consumeSpread, licenses: LICENSES },
      usageUpload: { ...usageUpload, recordsPerBatch: BATCH, recordsPerSecond: usageUpload.requestsPerSecond * BATCH },
      baseline: { ...baseline, usageUpload: { ...baseline.usageUpload, recordsPerSecond: baseline.usageUpload.requestsPerSecond * BATCH } },
      vsBaseline: {
        consumeOneLicense: ratio(consumeOneLicense, baseline.consumeOneLicense),
        consumeSpread: ratio(consumeSpread, baseline.consumeSpread),
        usageUpload: ratio(usageUpload, baseline.usageUpload),
      },
      minimal,
      vsMinimal: {
        consumeOneLicense: minimalRatio(consumeOneLicense, minimal.consumeOneLicense),
        consumeSpread: minimalRatio(consumeSpread, minimal.consumeSpread),
      },
      exactness,
      targets: { consumeSpread: 1500, consumeOneLicense: 500, usageRecordsPerSecond: 20_000 },
    };
  } finally {
    if (baselineChild && baselineChild.exitCode === null) baselineChild.kill("SIGTERM");
    await db.$disconnect();
    await server.stop();
  }
}
