// `npm run bench -- backoffice`: the back office's REST reads (lists, filters, a license's and a
// customer's pages, the audit trail, the reports) on the kept scale data set of `bench -- scale`
// (scripts/bench/scale.ts seeds it when missing), each called sequentially RUNS times after a
// warm-up: p50, p95 and max against the 300 ms target, and the HTTP status. Then the same for the
// tRPC queries the back-office pages and pickers make (a staff user signed in through the form's
// flow), with the inputs the pages send.
import { loadavg } from "node:os";
import pg from "pg";
import { createDb } from "../../server/db/client.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { createUser } from "../../server/domain/identity/users.ts";
import { uiSignIn } from "../../tests/helpers/ui-session.ts";
import { scopeResources } from "../../server/domain/identity/scopes.ts";
import { startTestServer, TEST_APP_SECRET } from "../../tests/helpers/test-server.ts";
import { ensureScaleDataSet } from "./scale.ts";

const RUNS = Number(process.env.BENCH_BACKOFFICE_RUNS ?? 20);
const TARGET_P95_MS = 300;
const ADMIN = "/api/v1/provision/admin";

export type BackofficeRow = { read: string; path: string; status: number; p50Ms: number; p95Ms: number; maxMs: number; within: boolean };
export type BackofficeBenchResult = { scenario: "backoffice"; rows: Record<string, number>; reads: BackofficeRow[]; loadAverage: { before: number[]; after: number[] } };

export async function runBackofficeBench(options: { log?: (line: string) => void } = {}): Promise<BackofficeBenchResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:backoffice] ${line}\n`));
  const loadBefore = loadavg();
  const { databaseUrl, tenantId, rows } = await ensureScaleDataSet(log);
  process.env.APP_SECRET = TEST_APP_SECRET;
  const server = await startTestServer({ databaseUrl });
  const db = createDb(databaseUrl, { max: 2 });
  try {
    const scopes = scopeResources.map((r) => `provision.${r}.read`);
    const { client, clientSecret } = await createClient(systemContext(db, tenantId, "bench"), { name: "bench backoffice", kind: "admin", scopes });
    const tokenRes = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: clientSecret, scope: scopes.join(" ") }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    // A staff user of the data set's tenant, signed in as the back office's form does.
    const staffEmail = `bench-staff-${Date.now()}@example.com`;
    const staffPassword = "bench staff password 1";
    await createUser(systemContext(db, tenantId, "bench"), { kind: "staff", staffRole: "admin", email: staffEmail, password: staffPassword });
    const slug = (await db.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { slug: true } })).slug;
    const { cookie } = await uiSignIn("staff", { email: staffEmail, password: staffPassword, tenant: slug }, server.baseUrl);

    // A seeded license in the middle of the data set, its customer, one of its devices.
    const pgc = new pg.Client({ connectionString: databaseUrl });
    await pgc.connect();
    const some = (
      await pgc.query<{ entitlementId: string; customerId: string; email: string }>(
        `SELECT e.id AS "entitlementId", e."customerId" AS "customerId", e."customerContactEmail" AS email
         FROM "Entitlement" e WHERE e."tenantId" = $1::uuid AND e."externalReference" = 'scale-' || (SELECT count(*) / 2 FROM "Entitlement" WHERE "tenantId" = $1::uuid)`,
        [tenantId],
      )
    ).rows[0];
    await pgc.end();

    const now = new Date();
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const from = new Date(Date.UTC(to.getUTCFullYear() - 1, to.getUTCMonth(), 1));
    const period = `from=${from.toISOString().slice(0, 10)}&to=${to.toISOString().slice(0, 10)}`;
    const reads: [string, string][] = [
      ["licenses, first page", `${ADMIN}/entitlements?pageSize=20`],
      ["licenses, page 100", `${ADMIN}/entitlements?pageSize=20&pageNumber=100`],
      ["licenses, expiring within 30 days", `${ADMIN}/entitlements?pageSize=20&expiringWithinDays=30`],
      ["licenses, filter by customer", `${ADMIN}/entitlements?pageSize=20&filter=${encodeURIComponent(`customerId==${some.customerId}`)}`],
      ["license", `${ADMIN}/entitlements/${some.entitlementId}`],
      ["license's devices", `${ADMIN}/entitlements/${some.entitlementId}/devices`],
      ["customers, first page", `${ADMIN}/customers/users?pageSize=20`],
      ["customers, filter by email", `${ADMIN}/customers/users?pageSize=20&filter=${encodeURIComponent(`email==${some.email}`)}`],
      ["customer", `${ADMIN}/customers/users/${some.customerId}`],
      ["sessions (activations), first page", `${ADMIN}/sessions/activations?pageSize=20`],
      ["audit events, first page", `${ADMIN}/audit-events?pageSize=20`],
      ["report: revenue, 12 months", `${ADMIN}/reports/revenue?${period}`],
      ["report: seat utilization, weekly", `${ADMIN}/reports/seat-utilization?${period}&interval=week`],
      ["report: activations, daily", `${ADMIN}/reports/activations?${period}&interval=day`],
      ["report: value delivered, weekly", `${ADMIN}/reports/value-delivered?${period}&interval=week`],
    ];
    // tRPC: GET /api/trpc/<procedure>?input=<json>, as the pages' queries are sent (one per call).
    const trpc = (procedure: string, input?: unknown) =>
      `/api/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
    const page = { pageNumber: 1, pageSize: 20 };
    const fromTo = { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
    const term = `scale-${Math.floor(rows.Entitlement / 2)}`;
    const emailTerm = some.email.slice(0, 12);
    const trpcReads: [string, string][] = [
      ["tRPC dashboard", trpc("operations.dashboard")],
      ["tRPC licenses, first page", trpc("entitlements.list", page)],
      ["tRPC license picker (search)", trpc("entitlements.list", { pageNumber: 1, pageSize: 10, filter: `name|reference|externalReference@=*${term}` })],
      ["tRPC customer picker (search)", trpc("customers.users", { pageNumber: 1, pageSize: 10, filter: `email|firstName|lastName@=*${emailTerm}` })],
      ["tRPC global search", trpc("operations.search", { q: emailTerm })],
      ["tRPC license page", trpc("entitlements.get", { id: some.entitlementId })],
      ["tRPC license meters", trpc("meters.list", { entitlementId: some.entitlementId })],
      ["tRPC license history", trpc("audit.history", { entityId: some.entitlementId })],
      ["tRPC customer 360", trpc("operations.customer", { kind: "User", id: some.customerId })],
      ["tRPC devices (fleet), first page", trpc("licensing.listAllDevices", page)],
      ["tRPC devices of a customer", trpc("licensing.listAllDevices", { ...page, customerId: some.customerId })],
      ["tRPC activation codes, first page", trpc("licensing.listActivationCodes", page)],
      ["tRPC sessions, first page", trpc("sessions.list", page)],
      ["tRPC customers, first page", trpc("customers.users", page)],
      ["tRPC audit trail, first page", trpc("audit.list", page)],
      ["tRPC offers, first page", trpc("entitlements.offers", page)],
      ["tRPC usage (fleet), monthly", trpc("reports.fleetUsage", { ...fromTo, interval: "month" })],
    ];
    const results: BackofficeRow[] = [];
    for (const [read, path] of [...reads, ...trpcReads]) {
      const headers: Record<string, string> = path.startsWith("/api/trpc/") ? { cookie } : { authorization: `Bearer ${token}` };
      const call = async () => {
        const started = performance.now();
        const res = await fetch(`${server.baseUrl}${path}`, { headers });
        await res.arrayBuffer();
        return { ms: performance.now() - started, status: res.status };
      };
      await call();
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < RUNS; i++) {
        const r = await call();
        times.push(r.ms);
        status = r.status;
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]);
      const row = { read, path, status, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: Math.round(times[times.length - 1]), within: status === 200 && at(0.95) < TARGET_P95_MS };
      results.push(row);
      log(JSON.stringify(row));
    }
    const out = [
      "",
      "| back-office read | status | p50 ms | p95 ms | max ms | p95 < 300 ms |",
      "|---|---|---|---|---|---|",
      ...results.map((r) => `| ${r.read} | ${r.status} | ${r.p50Ms} | ${r.p95Ms} | ${r.maxMs} | ${r.within ? "yes" : "NO"} |`),
      "",
    ];
    process.stdout.write(`${out.join("\n")}\n`);
    return { scenario: "backoffice", rows, reads: results, loadAverage: { before: loadBefore, after: loadavg() } };
  } finally {
    await db.$disconnect();
    await server.stop();
  }
}
