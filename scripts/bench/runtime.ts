// Runtime benchmark (DESIGN.md section 11): the production build on a fresh database, one tenant
// with an entitlement of very many seats and one activation code, then autocannon at 64
// connections for 10 s each on activation (a new device per request), renew, check-in and a
// paginated admin list; a profile of single activations; then the baseline
// (scripts/bench/baseline-server.ts) on the same database.
import { randomUUID } from "node:crypto";
import type { AutocannonRequest } from "autocannon";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/key-issuance-policy.schemas.ts";
import { createTenant } from "../../server/domain/identity/create-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { startTestServer, TEST_APP_SECRET } from "../../tests/helpers/test-server.ts";
import { measureBaseline } from "./baseline.ts";
import { withCpu, type CpuShare } from "./cpu.ts";
import { load, type LoadResult } from "./load.ts";
import { profileActivation, type ActivationProfile } from "./profile-activation.ts";

type MeasuredLoad = LoadResult & { cpu: CpuShare };

export type RuntimeBenchResult = {
  scenario: "runtime";
  activation: MeasuredLoad;
  /**
   * Diagnostic, not a DESIGN.md target: the same activation load spread over several licenses.
   * Far above `activation` means activations of one license are bound by its row lock.
   */
  activationAcrossEntitlements: MeasuredLoad & { entitlements: number };
  renew: MeasuredLoad;
  checkIn: MeasuredLoad;
  adminList: MeasuredLoad;
  baselineActivation: LoadResult;
  /** Our activations/s divided by the baseline's. */
  activationVsBaseline: number;
  sessionsForRenewAndCheckIn: number;
  /** Where one activation's time goes, measured without contention (scripts/bench/profile-activation.ts). */
  activationProfile: ActivationProfile;
};

const ACTIVATIONS = "/api/v1/provision/activations";
const json = { "content-type": "application/json" };
/** ZClaimBasedActivation's ceiling: far more than the bench activates. */
const SEATS = 1_000_000;
const SPREAD_ENTITLEMENTS = 16;

export async function runRuntimeBench(options: { sessions?: number; log?: (line: string) => void } = {}): Promise<RuntimeBenchResult> {
  const sessionCount = options.sessions ?? Number(process.env.BENCH_RUNTIME_SESSIONS ?? 256);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:runtime] ${line}\n`));

  log("starting the production server on a fresh database");
  const server = await startTestServer();
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  try {
    const tenant = await createTenant(db, { name: "Bench runtime" });
    const scopes = ["provision.activation-code.*", "provision.entitlement-adm.*"];
    const { client, clientSecret } = await createClient(db, tenant.tenantId, { name: "bench", kind: "admin", scopes });
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
    log("baseline activation (node:http + pg + jose)");
    const baselineActivation = await measureBaseline(server.databaseUrl);
    log(`baseline: ${JSON.stringify(baselineActivation)}`);

    return {
      scenario: "runtime",
      activation,
      activationAcrossEntitlements: { ...activationAcrossEntitlements, entitlements: spreadCodes.length },
      renew,
      checkIn,
      adminList,
      baselineActivation,
      activationVsBaseline: Math.round((activation.requestsPerSecond / baselineActivation.requestsPerSecond) * 100) / 100,
      sessionsForRenewAndCheckIn: sessions.length,
      activationProfile,
    };
  } finally {
    await db.$disconnect();
    await server.stop();
  }
}
