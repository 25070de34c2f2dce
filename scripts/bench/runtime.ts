// Runtime benchmark (docs/architecture.md section 11): the production web entry (server/web/main.ts, the runtime
// lane) on a fresh database, one tenant with entitlements of very many seats and their activation
// codes, then autocannon at 64 connections for 10 s each on activation (a new device per request;
// on one license and spread over 16), renew, check-in and a paginated admin list; a profile of
// single activations; then the same-work baseline (scripts/bench/baseline-server.ts replaying the
// statements recorded from the very route handlers, scripts/bench/same-work.ts) on the same
// database, measured the same way. Ratios, CPU ms per request (web process and PostgreSQL) and
// statements per request for each.
import { systemContext } from "../../server/domain/context.ts";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import type { AutocannonRequest } from "autocannon";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { startTestServer, TEST_APP_SECRET, TEST_RATE_LIMITS } from "../../tests/helpers/test-server.ts";
import { startBaseline } from "./baseline.ts";
import { minimalActivation, minimalRatio, minimalSessionCalls, startMinimalBaseline, type MinimalLoad } from "./minimal-baseline.ts";
import type { BaselineScript } from "./baseline-server.ts";
import { callHandler, installRecorder, roundTrips, sameShape, templateOf, type Template } from "./same-work.ts";
import { matchRuntimeRoute } from "../../server/web/runtime-routes.ts";
import { open } from "../../server/crypto/secret-box.ts";
import { withCpu, type CpuShare } from "./cpu.ts";
import { load, type LoadResult } from "./load.ts";
import { compareWebProcesses, type ProcessesComparison } from "./processes.ts";
import { profileActivation, type ActivationProfile } from "./profile-activation.ts";

type MeasuredLoad = LoadResult & { cpu: CpuShare };

export type RuntimeBenchResult = {
  scenario: "runtime";
  activation: MeasuredLoad;
  /**
   * Diagnostic, not a docs/architecture.md target: the same activation load spread over several licenses.
   * Far above `activation` means activations of one license are bound by its row lock.
   */
  activationAcrossEntitlements: MeasuredLoad & { entitlements: number };
  renew: MeasuredLoad;
  checkIn: MeasuredLoad;
  adminList: MeasuredLoad;
  /** The same-work baseline, measured the same way. */
  baseline: { activation: MeasuredLoad; activationAcrossEntitlements: MeasuredLoad; renew: MeasuredLoad; checkIn: MeasuredLoad };
  /** Our requests/s divided by the baseline's. */
  ratios: { activation: number; activationAcrossEntitlements: number; renew: number; checkIn: number };
  /**
   * The minimal-work baseline (scripts/bench/minimal-baseline-server.ts): only what each job
   * strictly needs, on its own tables, measured the same way; and our requests/s over it.
   */
  minimal: { activation: MinimalLoad; activationAcrossEntitlements: MinimalLoad; renew: MinimalLoad; checkIn: MinimalLoad };
  minimalRatios: { activation: number; activationAcrossEntitlements: number; renew: number; checkIn: number };
  /** Statements our handler sends per request (BEGIN and COMMIT included), recorded in-process; the baseline sends the same. */
  statementsPerRequest: { activation: number; renew: number; checkIn: number };
  /** Round trips to PostgreSQL per request: statements sent together (pipelined) count once. */
  roundTripsPerRequest: { activation: number; renew: number; checkIn: number };
  /** `uptime`'s load averages before and after the run: the machine is shared. */
  loadAverage: { before: number[]; after: number[] };
  sessionsForRenewAndCheckIn: number;
  /** Where one activation's time goes, measured without contention (scripts/bench/profile-activation.ts). */
  activationProfile: ActivationProfile;
  /** The same loads on 1 and on N (= cores) web processes sharing the port (scripts/bench/processes.ts). */
  webProcesses: ProcessesComparison;
};

const ACTIVATIONS = "/api/v1/provision/activations";
const json = { "content-type": "application/json" };
/** ZClaimBasedActivation's ceiling: far more than the bench activates. */
const SEATS = 1_000_000;
const SPREAD_ENTITLEMENTS = 16;

export async function runRuntimeBench(
  options: {
    sessions?: number;
    log?: (line: string) => void;
    /** `bench -- scale`: an existing, migrated database (kept) and its tenant, instead of fresh ones. */
    databaseUrl?: string;
    tenantId?: string;
  } = {},
): Promise<RuntimeBenchResult> {
  const sessionCount = options.sessions ?? Number(process.env.BENCH_RUNTIME_SESSIONS ?? 256);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:runtime] ${line}\n`));
  const loadBefore = loadavg();
  // The handlers recorded in this process count against the server's limits (the same counters):
  // under the defaults, a recording in the load's rate-limit window would be refused.
  process.env.RATE_LIMITS ??= TEST_RATE_LIMITS;

  log("starting the production server on a fresh database");
  const server = await startTestServer({ databaseUrl: options.databaseUrl });
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  try {
    const tenant = options.tenantId ? { tenantId: options.tenantId } : await createTenant(db, { name: "Bench runtime" });
    const scopes = ["provision.activation-code.*", "provision.entitlement-adm.*"];
    const { client, clientSecret } = await createClient(systemContext(db, tenant.tenantId, "bench"), { name: "bench", kind: "admin", scopes });
    const tokenRes = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: clientSecret, scope: scopes.join(" ") }),
    });
    const adminToken = ((await tokenRes.json()) as { access_token: string }).access_token;

    log("seeding entitlements and an activation code");
    const scoped = tenantDb(db, tenant.tenantId);
    const entitlementFields = (i: number) => ({
      tenantId: tenant.tenantId,
      name: `Bench license ${i}`,
      description: "Benchmark license",
      features: [],
      activationPolicy: {},
      claimBasedActivation: { leaseTime: "PT1H", gracePeriod: "P1D", numberOfSeats: SEATS, isFloatingLicense: false },
      keyIssuancePolicy: defaultKeyIssuancePolicy(),
      productIds: [],
    });
    const entitlement = await scoped.entitlement.create({ data: entitlementFields(0) });
    // The admin list pages through more than one page.
    const others = await scoped.entitlement.createManyAndReturn({ data: Array.from({ length: 59 }, (_, i) => entitlementFields(i + 1)), select: { id: true } });
    const issueCode = async (entitlementId: string) => {
      const issued = await fetch(`${server.baseUrl}/api/v1/provision/operational/entitlements/${entitlementId}/activation-codes`, {
        method: "POST",
        headers: { ...json, authorization: `Bearer ${adminToken}` },
        body: "{}",
      });
      if (!issued.ok) throw new Error(`issuing an activation code: ${issued.status} ${await issued.text()}`);
      return ((await issued.json()) as { codes: { code: string }[] }).codes[0].code;
    };
    const activationCode = await issueCode(entitlement.id);
    const spreadCodes = [activationCode];
    for (const other of others.slice(0, SPREAD_ENTITLEMENTS - 1)) spreadCodes.push(await issueCode(other.id));

    log(`pre-activating ${sessionCount} sessions for renew and check-in`);
    const sessions: { sessionId: string; token: string }[] = [];
    for (let i = 0; i < sessionCount; i += 16) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(16, sessionCount - i) }, async () => {
          const res = await fetch(`${server.baseUrl}${ACTIVATIONS}/jwt`, { method: "POST", headers: json, body: JSON.stringify({ activationCode, fingerprint: `bench-pre-${randomUUID()}` }) });
          if (!res.ok) throw new Error(`pre-activation: ${res.status} ${await res.text()}`);
          const token = (await res.json()) as string;
          return { token, sessionId: (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { sub: string }).sub };
        }),
      );
      sessions.push(...batch);
    }
    // A production database has planner statistics; a fresh one has none, and the generic plans
    // the server's prepared statements settle on in their first executions would then pick
    // indexes by tie (a tenant-wide scan per activation) until autovacuum's first ANALYZE.
    await db.$executeRawUnsafe("ANALYZE");
    let next = 0;
    const sessionRequest = (op: "renew" | "check-in"): AutocannonRequest => ({
      method: "POST",
      setupRequest: (req) => {
        const session = sessions[next++ % sessions.length];
        return { ...req, path: `${ACTIVATIONS}/${session.sessionId}/${op}`, headers: { authorization: `Bearer ${session.token}` } };
      },
    });

    log("activation (/activations/jwt, a new fingerprint per request)");
    const port = Number(new URL(server.baseUrl).port);
    const measured = (request: AutocannonRequest) => withCpu(server.databaseUrl, port, () => load(server.baseUrl, request));
    const activation = await measured({
      method: "POST",
      path: `${ACTIVATIONS}/jwt`,
      headers: json,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ activationCode, fingerprint: `bench-${randomUUID()}` }) }),
    });
    log(`activation: ${JSON.stringify(activation)}`);
    log(`activation spread over ${spreadCodes.length} entitlements (diagnostic: how much the one license's row lock costs)`);
    let spreadNext = 0;
    const activationAcrossEntitlements = await measured({
      method: "POST",
      path: `${ACTIVATIONS}/jwt`,
      headers: json,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ activationCode: spreadCodes[spreadNext++ % spreadCodes.length], fingerprint: `bench-${randomUUID()}` }) }),
    });
    log(`activation spread: ${JSON.stringify(activationAcrossEntitlements)}`);
    log("renew");
    const renew = await measured(sessionRequest("renew"));
    log(`renew: ${JSON.stringify(renew)}`);
    log("check-in");
    const checkIn = await measured(sessionRequest("check-in"));
    log(`check-in: ${JSON.stringify(checkIn)}`);
    log("admin list (GET /admin/entitlements?pageSize=20)");
    const adminList = await measured({ method: "GET", path: "/api/v1/provision/admin/entitlements?pageSize=20", headers: { authorization: `Bearer ${adminToken}` } });
    log(`admin list: ${JSON.stringify(adminList)}`);
    log("profiling single activations (statements and time per step)");
    const activationProfile = await profileActivation({ databaseUrl: server.databaseUrl, baseUrl: server.baseUrl, activationCode });
    log(`profile: ${JSON.stringify(activationProfile)}`);
    log("recording the handlers' statements for the same-work baseline");
    const script = await recordScript(server.databaseUrl, db, tenant.tenantId, activationCode, spreadCodes, sessions);
    log(`statements per request: ${JSON.stringify(script.statementsPerRequest)}, round trips: ${JSON.stringify(script.roundTripsPerRequest)}`);
    // The baseline's connections plan on the statistics of the tables as our load left them.
    await db.$executeRawUnsafe("ANALYZE");
    const baselineServer = await startBaseline(server.databaseUrl, script.script);
    let baseline: RuntimeBenchResult["baseline"];
    try {
      // A baseline that fails does no work: one request of each kind must succeed first.
      for (const [path, headers, body] of [
        ["/activate?template=0", json, JSON.stringify({ activationCode, fingerprint: `baseline-smoke-${randomUUID()}` })],
        ["/activate?template=spread", json, JSON.stringify({ activationCode, fingerprint: `baseline-smoke-${randomUUID()}` })],
        [`/renew/${sessions[3].sessionId}`, { authorization: `Bearer ${sessions[3].token}` }, undefined],
        [`/check-in/${sessions[3].sessionId}`, { authorization: `Bearer ${sessions[3].token}` }, undefined],
      ] as const) {
        const res = await fetch(`${baselineServer.baseUrl}${path}`, { method: "POST", headers, body });
        if (!res.ok) throw new Error(`baseline ${path}: ${res.status} ${await res.text()}`);
      }
      const onBaseline = (request: AutocannonRequest) =>
        withCpu(server.databaseUrl, baselineServer.port, () => load(baselineServer.baseUrl, request));
      const activationBody = (req: AutocannonRequest) => ({ ...req, body: JSON.stringify({ activationCode, fingerprint: `baseline-${randomUUID()}` }) });
      log("baseline: activation, one license");
      const bActivation = await onBaseline({ method: "POST", path: "/activate?template=0", headers: json, setupRequest: activationBody });
      log(`baseline activation: ${JSON.stringify(bActivation)}`);
      log("baseline: activation spread");
      const bSpread = await onBaseline({ method: "POST", path: "/activate?template=spread", headers: json, setupRequest: activationBody });
      log(`baseline activation spread: ${JSON.stringify(bSpread)}`);
      const baselineSession = (op: "renew" | "check-in"): AutocannonRequest => ({
        method: "POST",
        setupRequest: (req) => {
          const session = sessions[next++ % sessions.length];
          return { ...req, path: `/${op}/${session.sessionId}`, headers: { authorization: `Bearer ${session.token}` } };
        },
      });
      log("baseline: renew");
      const bRenew = await onBaseline(baselineSession("renew"));
      log(`baseline renew: ${JSON.stringify(bRenew)}`);
      log("baseline: check-in");
      const bCheckIn = await onBaseline(baselineSession("check-in"));
      log(`baseline check-in: ${JSON.stringify(bCheckIn)}`);
      baseline = { activation: bActivation, activationAcrossEntitlements: bSpread, renew: bRenew, checkIn: bCheckIn };
    } finally {
      await baselineServer.stop();
    }
    log("minimal-work baseline (lock + insert + commit + sign; one UPDATE by primary key)");
    const minimalServer = await startMinimalBaseline(server.databaseUrl, {
      tenantId: tenant.tenantId,
      kid: script.script.kid,
      privateJwk: script.script.privateJwk,
      licenses: spreadCodes.length,
      sessions: sessions.map((s) => ({ sessionId: s.sessionId, license: 0 })),
    });
    let minimal: RuntimeBenchResult["minimal"];
    try {
      const auth = { authorization: `Bearer ${sessions[3].token}` };
      await minimalServer.smoke("POST", "/activate?license=0", json, JSON.stringify({ fingerprint: "minimal-smoke" }));
      await minimalServer.smoke("POST", `/renew/${sessions[3].sessionId}`, auth);
      await minimalServer.smoke("POST", `/check-in/${sessions[3].sessionId}`, auth);
      minimal = {
        activation: await minimalServer.measure(minimalActivation("0")),
        activationAcrossEntitlements: await minimalServer.measure(minimalActivation("spread")),
        renew: await minimalServer.measure(minimalSessionCalls("renew", sessions)),
        checkIn: await minimalServer.measure(minimalSessionCalls("check-in", sessions)),
      };
      log(`minimal: ${JSON.stringify(minimal)}`);
    } finally {
      await minimalServer.stop();
    }
    log("1 vs N web processes behind one port");
    const webProcesses = await compareWebProcesses({ databaseUrl: server.databaseUrl, activationCode, sessions, log });
    const ratio = (ours: LoadResult, theirs: LoadResult) => Math.round((ours.requestsPerSecond / Math.max(1, theirs.requestsPerSecond)) * 100) / 100;

    return {
      webProcesses,
      scenario: "runtime",
      activation,
      activationAcrossEntitlements: { ...activationAcrossEntitlements, entitlements: spreadCodes.length },
      renew,
      checkIn,
      adminList,
      baseline,
      ratios: {
        activation: ratio(activation, baseline.activation),
        activationAcrossEntitlements: ratio(activationAcrossEntitlements, baseline.activationAcrossEntitlements),
        renew: ratio(renew, baseline.renew),
        checkIn: ratio(checkIn, baseline.checkIn),
      },
      minimal,
      minimalRatios: {
        activation: minimalRatio(activation, minimal.activation),
        activationAcrossEntitlements: minimalRatio(activationAcrossEntitlements, minimal.activationAcrossEntitlements),
        renew: minimalRatio(renew, minimal.renew),
        checkIn: minimalRatio(checkIn, minimal.checkIn),
      },
      statementsPerRequest: script.statementsPerRequest,
      roundTripsPerRequest: script.roundTripsPerRequest,
      loadAverage: { before: loadBefore, after: loadavg() },
      sessionsForRenewAndCheckIn: sessions.length,
      activationProfile,
    };
  } finally {
    await db.$disconnect();
    await server.stop();
  }
}

/**
 * Calls the activation, renew and check-in handlers in this process on a recording pool (after a
 * warm-up call each, so key loading and statement preparation are not in the recording) and turns
 * the recordings into the baseline's script.
 */
async function recordScript(
  databaseUrl: string,
  db: ReturnType<typeof createDb>,
  tenantId: string,
  activationCode: string,
  spreadCodes: string[],
  sessions: { sessionId: string; token: string }[],
): Promise<{
  script: BaselineScript;
  statementsPerRequest: RuntimeBenchResult["statementsPerRequest"];
  roundTripsPerRequest: RuntimeBenchResult["roundTripsPerRequest"];
}> {
  const recorder = installRecorder(databaseUrl);
  try {
    const handler = (path: string) => {
      const match = matchRuntimeRoute("POST", path);
      if (!match) throw new Error(`no runtime route for ${path}`);
      return match;
    };
    const activate = (code: string) => {
      const path = `${ACTIVATIONS}/jwt`;
      return recorder.record(() => callHandler(handler(path).handler, path, { body: { activationCode: code, fingerprint: `record-${randomUUID()}` } }));
    };
    const sessionOp = (op: "renew" | "check-in", s: { sessionId: string; token: string }) => {
      const path = `${ACTIVATIONS}/${s.sessionId}/${op}`;
      const match = handler(path);
      return recorder.record(() => callHandler(match.handler, path, { token: s.token, params: match.params }));
    };
    const ok = async (r: { response: Response }, what: string) => {
      if (!r.response.ok) throw new Error(`${what}: ${r.response.status} ${await r.response.text()}`);
      return r as { response: Response; statements: Parameters<typeof templateOf>[0] };
    };
    await ok(await activate(activationCode), "warm-up activation");
    await ok(await sessionOp("renew", sessions[2]), "warm-up renew");
    await ok(await sessionOp("check-in", sessions[2]), "warm-up check-in");

    const at = Date.now();
    const a1 = await ok(await activate(activationCode), "activation");
    const a2 = await ok(await activate(activationCode), "activation");
    const first = templateOf(a1.statements, a2.statements, at);
    if (!first) throw new Error("two activations of one license took different statements");
    const activation: Template[] = [first];
    for (const code of spreadCodes.slice(1)) {
      const other = sameShape(first, (await ok(await activate(code), "activation")).statements, Date.now());
      if (other) activation.push(other);
    }
    const r1 = await ok(await sessionOp("renew", sessions[0]), "renew");
    const r2 = await ok(await sessionOp("renew", sessions[1]), "renew");
    const c1 = await ok(await sessionOp("check-in", sessions[0]), "check-in");
    const c2 = await ok(await sessionOp("check-in", sessions[1]), "check-in");
    const renew = templateOf(r1.statements, r2.statements, at);
    const checkIn = templateOf(c1.statements, c2.statements, at);
    if (!renew || !checkIn) throw new Error("two renewals (or check-ins) took different statements");

    // The bench's own sessions only: on the scale data set the tenant holds millions.
    const rows = await db.$queryRawUnsafe<{ sessionId: string; deviceId: string; fingerprintHash: string }[]>(
      `SELECT s.id::text AS "sessionId", s."deviceId"::text AS "deviceId", d."fingerprintHash"
       FROM "LicenseSession" s JOIN "Device" d ON d.id = s."deviceId" AND d."tenantId" = s."tenantId"
       WHERE s."tenantId" = $1::uuid AND s.id = ANY($2::uuid[])`,
      tenantId,
      sessions.map((s) => s.sessionId),
    );
    const bySession = Object.fromEntries(rows.map((r) => [r.sessionId, r]));
    const key = await db.signingKey.findFirstOrThrow({ where: { tenantId, status: "Active" }, orderBy: { createdAt: "desc" } });
    return {
      script: {
        tenantId,
        kid: key.kid,
        privateJwk: JSON.parse(open(key.privateKeyEncrypted)) as Record<string, unknown>,
        activation,
        renew,
        checkIn,
        recordedSession: bySession[sessions[0].sessionId],
        sessions: bySession,
      },
      statementsPerRequest: { activation: a1.statements.length, renew: r1.statements.length, checkIn: c1.statements.length },
      roundTripsPerRequest: { activation: roundTrips(a1.statements), renew: roundTrips(r1.statements), checkIn: roundTrips(c1.statements) },
    };
  } finally {
    await recorder.close();
  }
}
