import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { createDb, type Db } from "../../server/db/client.ts";
import { startEmbeddedPostgres } from "../../server/db/embedded.ts";
import { migrate } from "../../server/db/migrate.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import type { StaffRole } from "../../server/domain/identity/staff-roles/staff-roles.ts";
import { createUser } from "../../server/domain/identity/users.ts";
import { appRouter } from "../../server/trpc/root.ts";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { TRPCError } from "@trpc/server";
import { uiSignIn } from "../helpers/ui-session.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { createTestDatabase, freePort, repoRoot, startTestServer } from "../helpers/test-server.ts";

/** Each fault test starts servers (and one a PostgreSQL): minutes on a loaded machine. */
const FAULT_TIMEOUT_MS = 240_000;

/**
 * docs/security.md "Suites", faults: processes this file started are killed (SIGKILL) or their
 * private PostgreSQL restarted while activations are in flight; then every activation is retried
 * with its Idempotency-Key (as a shipped application does) and the database must hold exactly one
 * session per device: nothing lost, nothing applied twice. The machine's shared PostgreSQL is never
 * touched; webhook deliveries under a killed worker are tests/int/webhooks/crash.int.test.ts.
 */

const SEATS = 500;
type Attempt = { fingerprint: string; key: string };

/** A tenant with one license of many seats and an activation code, made on `db` and issued over `base`. */
async function licenseOn(db: Db, base: string) {
  const tenant = await createTenant(db, { name: `Faults ${randomUUID().slice(0, 6)}` });
  const ctx = systemContext(db, tenant.tenantId, "test");
  const scopes = ["provision.activation-code.*"];
  const { client, clientSecret } = await createClient(ctx, { name: "faults", kind: "admin", scopes });
  const token = (
    (await (
      await fetch(`${base}/auth/connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: client.clientId,
          client_secret: clientSecret,
          scope: scopes.join(" "),
        }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const entitlement = await tenantDb(db, tenant.tenantId).entitlement.create({
    data: {
      tenantId: tenant.tenantId,
      name: "Fault license",
      description: "",
      features: [],
      activationPolicy: {},
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: SEATS,
        isFloatingLicense: false,
      },
      keyIssuancePolicy: defaultKeyIssuancePolicy(),
      productIds: [],
    },
  });
  const issued = await fetch(
    `${base}/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: "{}",
    },
  );
  expect(issued.status, await issued.clone().text()).toBe(200);
  const code = ((await issued.json()) as { codes: { code: string }[] }).codes[0].code;
  return { tenantId: tenant.tenantId, entitlementId: entitlement.id, code };
}

/** One activation; a connection torn down by the fault is an answer too (status 0). */
async function activate(base: string, code: string, attempt: Attempt) {
  try {
    const res = await fetch(`${base}/api/v1/provision/activations/jwt`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": attempt.key },
      body: JSON.stringify({ activationCode: code, fingerprint: attempt.fingerprint }),
    });
    const text = await res.text();
    return { status: res.status, sessionId: res.ok ? sessionOf(JSON.parse(text) as string) : null, text };
  } catch {
    return { status: 0, sessionId: null, text: "connection lost" };
  }
}
const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as { sub: string }).sub;

/**
 * After the fault: every attempt retried until it answers 200; each device has exactly one session,
 * the one every answer for it named (before and after the fault), and the seats in use match.
 */
async function expectExactlyOnce(
  db: Db,
  base: string,
  license: { tenantId: string; entitlementId: string; code: string },
  attempts: Attempt[],
  before: { sessionId: string | null }[],
) {
  const after: (string | null)[] = [];
  for (const attempt of attempts) {
    let res = await activate(base, license.code, attempt);
    for (let i = 0; i < 20 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      res = await activate(base, license.code, attempt);
    }
    expect(res.status, res.text).toBe(200);
    after.push(res.sessionId);
  }
  before.forEach((b, i) => {
    if (b.sessionId)
      expect(after[i], "a session answered before the fault was lost or replaced").toBe(b.sessionId);
  });
  const sessions = await tenantDb(db, license.tenantId).licenseSession.findMany({
    where: { entitlementId: license.entitlementId },
    select: { id: true, deviceId: true, revokedAt: true },
  });
  expect(sessions.filter((s) => !s.revokedAt)).toHaveLength(attempts.length);
  expect(new Set(sessions.map((s) => s.id))).toEqual(new Set(after));
  expect(new Set(sessions.map((s) => s.deviceId)).size).toBe(attempts.length);
}

describe("faults", () => {
  it(
    "kill -9 of the web process mid-activation: every device retried with its key ends with exactly one session",
    async () => {
      const databaseUrl = inject("databaseUrl");
      const db = createDb(databaseUrl, { max: 3 });
      const victim = await startTestServer({ databaseUrl });
      try {
        const license = await licenseOn(db, victim.baseUrl);
        const attempts = Array.from({ length: 40 }, () => ({ fingerprint: randomUUID(), key: randomUUID() }));
        const inFlight = attempts.map((a) => activate(victim.baseUrl, license.code, a));
        // Kill as soon as the first activation has committed: the rest are mid-flight.
        await Promise.race(inFlight);
        process.kill(victim.pid, "SIGKILL");
        const before = await Promise.all(inFlight);
        expect(before.some((r) => r.status === 200)).toBe(true);
        // The survivors go to the suite's own server (another web process on the same database).
        await expectExactlyOnce(db, inject("baseUrl"), license, attempts, before);
        console.info(
          `faults: web SIGKILL with ${before.filter((r) => r.status !== 200).length} of 40 activations cut off`,
        );
      } finally {
        await victim.stop();
        await db.$disconnect();
      }
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    "a PostgreSQL restart under activation load (a private embedded server): the service recovers, nothing lost, nothing twice",
    async () => {
      const port = await freePort();
      const dataDir = path.join(repoRoot, ".data/hardening-pg");
      let pg = await startEmbeddedPostgres({ dataDir, port });
      const database = await createTestDatabase(pg.url, "lic_fault");
      await migrate(database.url);
      const logFile = path.join(repoRoot, ".data/hardening", `server-restart-${process.pid}.log`);
      const server = await startTestServer({ databaseUrl: database.url, logFile });
      const db = createDb(database.url, { max: 3 });
      try {
        const license = await licenseOn(db, server.baseUrl);
        const attempts = Array.from({ length: 60 }, () => ({ fingerprint: randomUUID(), key: randomUUID() }));
        // A steady stream: eight at a time, the restart in the middle of it.
        const before: { status: number; sessionId: string | null; text: string }[] = new Array(
          attempts.length,
        );
        let next = 0;
        const lane = async () => {
          while (next < attempts.length) {
            const i = next++;
            before[i] = await activate(server.baseUrl, license.code, attempts[i]);
          }
        };
        const load = Promise.all(Array.from({ length: 8 }, lane));
        while (next < 15) await new Promise((r) => setTimeout(r, 20));
        await db.$disconnect();
        await pg.stop();
        pg = await startEmbeddedPostgres({ dataDir, port });
        await load;
        const failed = before.filter((r) => r.status !== 200).length;
        // While the database is away the answer is 503 with Retry-After (or the connection drops), never a 500.
        expect(before.filter((r) => r.status >= 500 && r.status !== 503).map((r) => r.text)).toEqual([]);
        const statuses: Record<number, number> = {};
        for (const r of before) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        const fresh = createDb(database.url, { max: 3 });
        try {
          await expectExactlyOnce(fresh, server.baseUrl, license, attempts, before);
        } finally {
          await fresh.$disconnect();
        }
        // The web process rode it out: no uncaught exception (a connection lost while checked out).
        expect(readFileSync(logFile, "utf8")).not.toMatch(/uncaught|unhandled/i);
        console.info(
          `faults: PostgreSQL restart with ${failed} of ${attempts.length} activations refused meanwhile ${JSON.stringify(statuses)}`,
        );
      } finally {
        await server.stop();
        await database.drop();
        await pg.stop();
      }
    },
    FAULT_TIMEOUT_MS,
  );

  it(
    "PostgreSQL down: tRPC and the token endpoint answer 503 service.unavailable (1050) with Retry-After, never a 500, and recover",
    async () => {
      const port = await freePort();
      const dataDir = path.join(repoRoot, ".data/hardening-pg-outage");
      let pg = await startEmbeddedPostgres({ dataDir, port });
      const database = await createTestDatabase(pg.url, "lic_outage");
      await migrate(database.url);
      const server = await startTestServer({ databaseUrl: database.url });
      let db = createDb(database.url, { max: 3 });
      try {
        const tenant = await createTenant(db, { name: `Outage ${randomUUID().slice(0, 6)}` });
        const ctx = systemContext(db, tenant.tenantId, "test");
        const email = "outage@faults.example.com";
        const password = "correct horse battery staple";
        const user = await createUser(ctx, { email, password, kind: "staff" });
        const { cookie } = await uiSignIn(
          "staff",
          { email, password, tenant: tenant.tenantSlug },
          server.baseUrl,
        );
        const { client, clientSecret } = await createClient(ctx, {
          name: "outage",
          kind: "admin",
          scopes: ["provision.product.read"],
        });
        const tokenRequest = () =>
          fetch(`${server.baseUrl}/auth/connect/token`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "client_credentials",
              client_id: client.clientId,
              client_secret: clientSecret,
            }),
          });
        const input = encodeURIComponent(JSON.stringify({ pageNumber: 1, pageSize: 10 }));
        const trpcList = () =>
          fetch(`${server.baseUrl}/api/trpc/staffUsers.list?input=${input}`, { headers: { cookie } });
        const trpcDelete = () =>
          fetch(`${server.baseUrl}/api/trpc/tags.delete`, {
            method: "POST",
            headers: { cookie, "content-type": "application/json" },
            body: JSON.stringify({ id: randomUUID() }),
          });
        expect((await tokenRequest()).status).toBe(200);
        expect((await trpcList()).status).toBe(200);

        await db.$disconnect();
        await pg.stop();
        const answers = {
          trpcQuery: await trpcList(),
          trpcMutation: await trpcDelete(),
          token: await tokenRequest(),
        };
        for (const [name, res] of Object.entries(answers)) {
          const text = await res.text();
          expect(res.status, `${name}: ${text}`).toBe(503);
          expect(res.headers.get("content-type"), name).toMatch(/^application\/problem\+json/);
          expect(res.headers.get("retry-after"), name).toBe("1");
          expect(JSON.parse(text), name).toMatchObject({
            status: 503,
            code: 1050,
            codeName: "service.unavailable",
          });
        }
        // RFC 6749's member beside the problem's, for OAuth libraries.
        expect(JSON.parse(await (await tokenRequest()).text())).toMatchObject({
          error: "temporarily_unavailable",
        });

        // A procedure whose own queries meet the outage (the session already read): 503 in tRPC's
        // envelope, the problem under data.problem. In this process, on a client of the stopped server.
        const offline = createDb(database.url, { max: 1 });
        try {
          const caller = appRouter.createCaller({
            db: offline,
            session: {
              userId: user.id,
              tenantId: tenant.tenantId,
              tenantName: "Outage",
              tenantSlug: tenant.tenantSlug,
              kind: "staff",
              email,
              name: email,
              roles: [],
              sessionId: "",
              signedInAt: 0,
              staffRole: user.staffRole as StaffRole,
              expires: new Date(Date.now() + 3_600_000).toISOString(),
            },
          });
          const refused = await caller.staffUsers
            .list({ pageNumber: 1, pageSize: 10 })
            .catch((e: unknown) => e);
          expect(refused).toBeInstanceOf(TRPCError);
          expect((refused as TRPCError).code).toBe("SERVICE_UNAVAILABLE");
          expect(getHTTPStatusCodeFromError(refused as TRPCError)).toBe(503);
          expect((refused as TRPCError).cause).toMatchObject({ codeName: "service.unavailable" });
        } finally {
          await offline.$disconnect();
        }

        pg = await startEmbeddedPostgres({ dataDir, port });
        db = createDb(database.url, { max: 3 });
        // Recovery: the same requests succeed once the database is back (the pools reconnect).
        for (const call of [tokenRequest, trpcList]) {
          let res = await call();
          for (let i = 0; i < 40 && res.status !== 200; i++) {
            expect(res.status).toBe(503);
            await new Promise((r) => setTimeout(r, 250));
            res = await call();
          }
          expect(res.status, await res.text()).toBe(200);
        }
        console.info(
          "faults: PostgreSQL stopped under tRPC (query, mutation, procedure) and the token endpoint: 503 1050, then 200",
        );
      } finally {
        await server.stop();
        await db.$disconnect();
        await database.drop();
        await pg.stop();
      }
    },
    FAULT_TIMEOUT_MS,
  );
});
