import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { CUSTOMER_USERS, ENTITLEMENTS, makeEntitlement, ok } from "../../helpers/entitlements.ts";
import { PRODUCTS, uniqueCode } from "../../helpers/catalog-products.ts";
import {
  PROVISION,
  activatedLicense,
  made,
  seedTenantWorld,
  tenantRows,
} from "../../helpers/tenant-world.ts";
import { activated, claimsOf, licensedEntitlement, sessionCall } from "../../helpers/runtime.ts";
import { captureSubscription, emit } from "../../helpers/webhook-fixtures.ts";
import { sweepExpiredLeases } from "../../../server/domain/cross-tenant.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { fanOutEnvelope } from "../../../server/domain/webhooks/events/fan-out.ts";
import {
  recordAttempt,
  recordSucceededAttempts,
  type AttemptResult,
} from "../../../server/domain/webhooks/delivery/deliver.ts";
import { rotateTenantSigningKey } from "../../../server/domain/identity/rotate-tenant-signing-key.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { sqlOnPool } from "../../../server/db/sql.ts";

/**
 * Raw SQL is not covered by the tenant-scoped Prisma client (server/db/tenant-db.ts): each
 * statement filters its tenant itself. Two tenants hold twins (the same product, feature, suite and
 * add-on codes, tag names, customer email, metric name and device fingerprint); the caller's
 * operations never read or change the other's rows, and the other's ids are unknown to it.
 */

const T = {
  locks:
    "locks by id: another tenant's id is not found (404) and the caller's own call leaves the twin alone",
  mergeTags: "tag merge copies the caller's assignments only; the twin tags keep theirs",
  implicitSuite: "an implicit suite's code is free when only another tenant's suite uses it",
  addOnCounts: "an add-on's referencedBy counts the caller's grants only",
  rotateKey: "rotating one tenant's signing key leaves the other's keys alone",
  activation:
    "activation with a fingerprint another tenant's license also holds makes the caller's device and session",
  sessionCalls:
    "renew, check-in and release touch the caller's session only, not the twin on the same fingerprint",
  componentMatching:
    "component matching finds and re-keys the caller's device only, never the twin with the same components",
  leaseSweep: "the lease sweep ends expired sessions and leaves live ones of any tenant",
  codeSequence: "a tenant-wide code sequence counts the caller's codes only",
  balances: "deposit, withdraw and set change the caller's balance only; another tenant's entitlement is 404",
  outbox: "an event is written to the outbox for the tenant whose change it records",
  deliver:
    "recording a delivery names its tenant: under another tenant, neither the single nor the batch record moves it",
  idempotency: "an Idempotency-Key reused by another tenant is that tenant's own key",
  fanOut:
    "an event fans out to its own tenant's subscriptions only, never to the other's on the same pattern",
  sendLimit: "the test-fire and verify limit of a subscription counts that tenant's sends only",
} as const;

/**
 * Every raw-SQL statement in server/ (`$queryRaw`, `$executeRaw`, pg `query(`), by file: the count
 * the tree test below finds, and the test above that proves its tenant filter, or why it needs none.
 * A new statement changes a count and fails the tree test until it is listed here with its proof.
 */
const sites: Record<string, { count: number; proof: string }> = {
  "server/domain/catalog/feature-catalog/delete-feature-catalog-entry.ts": { count: 1, proof: T.locks },
  "server/domain/catalog/products/product-lock.ts": { count: 1, proof: T.locks },
  "server/domain/catalog/tags/merge-tags.ts": { count: 2, proof: T.mergeTags },
  "server/domain/customers/customer-organizations.ts": { count: 1, proof: T.locks },
  "server/domain/customers/customer-users.ts": { count: 1, proof: T.locks },
  "server/domain/entitlements/add-on-grants/add-on-grants.ts": { count: 1, proof: T.locks },
  "server/domain/entitlements/entitlement/entitlement-lock.ts": { count: 2, proof: T.locks },
  "server/domain/entitlements/offers/offer-lifecycle.ts": { count: 1, proof: T.locks },
  "server/domain/entitlements/offers/write-offer.ts": { count: 1, proof: T.locks },
  "server/domain/entitlements/plans/plan-change-requests.ts": { count: 1, proof: T.locks },
  "server/domain/identity/rotate-tenant-signing-key.ts": { count: 1, proof: T.rotateKey },
  "server/domain/licensing/activation/decide-activation.ts": { count: 5, proof: T.activation },
  "server/domain/licensing/activation/component-matching.ts": { count: 2, proof: T.componentMatching },
  "server/domain/licensing/activation-codes/issue-activation-codes.ts": { count: 1, proof: T.codeSequence },
  "server/domain/licensing/sessions/session-access.ts": { count: 4, proof: T.sessionCalls },
  "server/domain/licensing/sessions/contact-without-lock.ts": { count: 2, proof: T.sessionCalls },
  "server/domain/licensing/sessions/release-session.ts": { count: 1, proof: T.sessionCalls },
  "server/domain/licensing/sessions/sweep-expired-leases.ts": { count: 1, proof: T.leaseSweep },
  "server/domain/metering/balances/mutate-balance.ts": { count: 3, proof: T.balances },
  "server/domain/pricing/add-ons/add-add-on-feature.ts": { count: 1, proof: T.locks },
  "server/domain/pricing/add-ons/add-on-response.ts": { count: 1, proof: T.addOnCounts },
  "server/domain/pricing/add-ons/delete-add-on.ts": { count: 1, proof: T.locks },
  "server/domain/pricing/suites/implicit-suite.ts": { count: 1, proof: T.implicitSuite },
  "server/domain/pricing/suites/suite-lock.ts": { count: 1, proof: T.locks },
  "server/domain/webhooks/delivery/deliver.ts": { count: 1, proof: T.deliver },
  "server/domain/webhooks/events/fan-out.ts": { count: 7, proof: T.fanOut },
  "server/domain/webhooks/subscriptions/on-demand-send-limit.ts": { count: 1, proof: T.sendLimit },
  "server/domain/webhooks/events/emit-event.ts": { count: 1, proof: T.outbox },
  "server/domain/webhooks/subscriptions/delete-subscription.ts": { count: 1, proof: T.locks },
  "server/http/idempotency.ts": { count: 1, proof: T.idempotency },
  "server/db/report-queries.ts": {
    count: 11,
    proof:
      "tests/int/reports/report-isolation.int.test.ts > a tenant's reports hold only its own data, even when another tenant has data in the same periods",
  },
  "server/domain/licensing/anonymous-try/issue-anonymous-try.ts": {
    count: 2,
    proof:
      "tests/int/entitlements/anonymous-try.int.test.ts > an offer without allowAnonymousTry is 403 anonymous_try.not_allowed; an unknown, Draft or foreign-looking offer id is 404; nothing is issued",
  },
  "server/domain/entitlements/anonymous-try/purge-anonymous-tries.ts": {
    count: 5,
    proof:
      "tests/int/entitlements/anonymous-try.int.test.ts > the worker purges a try that is due and never converted, with its sessions, devices, codes and metering rows, in bounded batches; the device gets no second try",
  },
  "server/domain/metering/auto-balance/run-auto-balances.ts": {
    count: 4,
    proof:
      "tests/int/metering/auto-balance.int.test.ts > auto-balance runs exactly once per scheduled instant with several workers",
  },
  "server/domain/metering/consumption/consume-metric.ts": {
    count: 1,
    proof:
      "tests/int/metering/consumption.int.test.ts > tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked",
  },
  "server/domain/metering/consumption/sweep-consume-keys.ts": {
    count: 2,
    proof:
      "tests/int/metering/consumption.int.test.ts > idempotency key expiry with an injected clock: remembered 24 hours, forgotten by the worker's sweep within the hour after, then a repeat counts as a new consume",
  },
  "server/domain/metering/meters/list-entitlement-meters.ts": {
    count: 1,
    proof:
      "tests/int/metering/usage-reads.int.test.ts > the vendor backend reads an entitlement's meters (scope provision.usage.read); another tenant's entitlement is 404",
  },
  "server/domain/metering/meters/meter-terms.ts": {
    count: 1,
    proof:
      "tests/int/metering/consumption.int.test.ts > tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked",
  },
  "server/domain/metering/meters/read-meter.ts": {
    count: 2,
    proof:
      "tests/int/metering/usage-reads.int.test.ts > the vendor backend reads an entitlement's meters (scope provision.usage.read); another tenant's entitlement is 404",
  },
  "server/domain/metering/overage/overage-events.ts": {
    count: 1,
    proof:
      "tests/int/metering/consumption.int.test.ts > tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked",
  },
  "server/domain/metering/consumption/commit-consume.ts": {
    count: 2,
    proof:
      "tests/int/metering/consumption.int.test.ts > tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked",
  },
  "server/domain/metering/consumption/decide-on-meter.ts": {
    count: 3,
    proof:
      "tests/int/metering/consumption.int.test.ts > tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked",
  },
  "server/domain/metering/consumption/fast-consume.ts": {
    count: 1,
    proof:
      "tests/int/metering/consumption.int.test.ts > tenant isolation: a token of another tenant's session is refused, a foreign metric is not tracked",
  },
  "server/domain/metering/usage/settle-usage.ts": {
    count: 3,
    proof:
      "tests/int/metering/usage-upload.int.test.ts > the entitlement-level upload takes an operational credential: 401 without, 403 with the wrong scope, 404 for another tenant's entitlement",
  },
  "server/domain/metering/usage/record-usage.ts": {
    count: 1,
    proof:
      "tests/int/metering/usage-upload.int.test.ts > the entitlement-level upload takes an operational credential: 401 without, 403 with the wrong scope, 404 for another tenant's entitlement",
  },
  "server/domain/operations/entity-history.ts": {
    count: 1,
    proof:
      "tests/int/operations/entity-history.int.test.ts > another tenant's record is not found, either way round, and its rows naming the id stay out",
  },
  // Maintenance that serves every tenant by design; each statement keeps the row's own tenant.
  "server/domain/webhooks/delivery/capture-retention.ts": {
    count: 1,
    proof:
      "tests/int/webhooks/replay-capture.int.test.ts > capture retention: 7 days or the 1,000 most recent per capture subscription, whichever first, enforced by the worker job",
  },
  "server/domain/webhooks/delivery/claim-deliveries.ts": {
    count: 1,
    proof:
      "tests/int/webhooks/security.int.test.ts > one tenant can starve webhook delivery for all: a tenant whose receivers hang holds at most its concurrency caps, and another tenant's events still go out",
  },
  "server/domain/webhooks/delivery/sweep-deliveries.ts": {
    count: 3,
    proof:
      "tests/int/webhooks/crash.int.test.ts > a pending delivery the pump cannot see (no attempt time) is given one by the sweeper once it is 10 minutes overdue",
  },
  "server/jobs/retention.ts": {
    count: 4,
    proof:
      "tests/int/platform/retention.int.test.ts > deletes expired webhook envelopes that are fanned out and have nothing pending, with their deliveries and attempts, in bounded batches",
  },
  "server/jobs/purge-expired-idempotency.ts": {
    count: 2,
    proof:
      "tests/int/platform/worker.int.test.ts > deletes expired idempotency records and keeps live ones when run by graphile-worker",
  },
  "server/domain/rate-limits/hit-rate-limits.ts": {
    count: 1,
    proof:
      "tests/int/platform/rate-limits.int.test.ts > activation per caller address: past the tenant's limit 429 whichever code; another tenant's activations from the same address have their own budget",
  },
  "server/domain/licensing/activation-codes/find-activation-code.ts": {
    count: 1,
    proof:
      "none: activation names no tenant (docs/architecture.md section 5); the code is found by its service-wide unique lookupKey and its row names its tenant",
  },
  "server/domain/metering/balances/grant-consumer-credits.ts": {
    count: 1,
    proof:
      "none: SELECT 1 ... FOR UPDATE of the balance the tenant-scoped read just found, by its id and the caller's tenantId; it returns nothing",
  },
  // No tenant-owned rows.
  "server/domain/identity/credential-attempts.ts": {
    count: 1,
    proof:
      "none: rate-limit counters belong to no tenant (the refund names the counter row the reservation returned)",
  },
  "server/domain/rate-limits/sweep-rate-limit-counters.ts": {
    count: 2,
    proof: "none: rate-limit counters belong to no tenant (a bucket names its tenant in its key)",
  },
  "server/domain/portability/export/export-catalog.ts": {
    count: 1,
    proof: "none: SET TRANSACTION (a consistent read-only snapshot for the export), no rows",
  },
  "server/domain/webhooks/delivery/requeue-dead-letter.ts": {
    count: 1,
    proof: "none: pg_notify wakes the dispatcher, no rows",
  },
  "server/jobs/webhook-dispatcher.ts": {
    count: 3,
    proof: "none: LISTEN and the dispatcher's advisory watch lock, no rows",
  },
  "server/domain/webhooks/delivery/replay-envelopes.ts": {
    count: 1,
    proof:
      "none: an advisory lock whose key carries the tenant id (the ledger is read through the tenant client)",
  },
  "server/db/job-queue.ts": { count: 2, proof: "none: graphile-worker's add_job" },
  "server/domain/operations/platform-gauges.ts": {
    count: 2,
    proof:
      "none: platform-wide counts (job queue, outbox backlog) for the operator's GET /api/metrics; no tenant's rows leave (tests/int/operations/operations.int.test.ts > GET /api/metrics)",
  },
  "server/domain/identity/staff-roles/staff-users.ts": {
    count: 1,
    proof:
      "none: an advisory lock whose key carries the tenant id (users are read through the tenant client)",
  },
  "server/db/migrate.ts": { count: 9, proof: "none: migrations and their advisory lock" },
  "server/db/sql.ts": {
    count: 4,
    proof:
      "none: COMMIT and ROLLBACK, and the runtime lane's statements, each counted and proven at its own site",
  },
  "server/db/readiness.ts": { count: 1, proof: "none: the migrations table" },
  "server/db/schema-drift.ts": { count: 3, proof: "none: the schema catalog" },
  "server/db/month-partitions.ts": {
    count: 6,
    proof:
      'none: the catalog\'s partitions of a ledger and their DDL (docs/decisions.md "Ledger partitions"), no rows',
  },
  "server/domain/metering/ledger/fold-ledger-partition.ts": {
    count: 2,
    proof:
      "none: the worker folds a whole ledger month of every tenant before dropping it; each base row keeps its tenantId and the rebuild reads its own tenant's (tests/int/operations/ledger-retention-rebuild.int.test.ts)",
  },
  "server/domain/metering/usage/archive-usage-records.ts": {
    count: 2,
    proof:
      "none: the worker moves records by their own age over every tenant; each row keeps its tenantId (tests/int/operations/ledger-partitions.int.test.ts)",
  },
};

const root = fileURLToPath(new URL("../../..", import.meta.url));
// A statement site: Prisma's raw calls, a pg or SqlTx `query(`/`queryAndCommit(` of a constant or a
// literal, and each statement of a SqlTx `queries([...])` pipeline (`[NAME, [`).
const RAW_SQL =
  /\$(queryRaw|executeRaw)(Unsafe)?\b|\.(query|queryAndCommit)(<[^>]*>)?\(\s*(\{|"|'|`|[A-Z_][A-Z0-9_]+\b)|\[\s*[A-Z_][A-Z0-9_]+,\s*\[/g;

function rawSqlCounts(dir: string, out: Record<string, number> = {}): Record<string, number> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "generated") rawSqlCounts(rel, out);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      const count = (readFileSync(path.join(root, rel), "utf8").match(RAW_SQL) ?? []).length;
      if (count) out[rel] = count;
    }
  }
  return out;
}

describe("raw-SQL tenant filters: a tenant never reads or changes another's rows", () => {
  let a: TestTenant;
  let b: TestTenant;
  let mine: Awaited<ReturnType<typeof seedTenantWorld>>;
  let theirs: Awaited<ReturnType<typeof seedTenantWorld>>;

  beforeAll(async () => {
    a = await createTestTenant("Raw SQL caller");
    b = await createTestTenant("Raw SQL other");
    const code = uniqueCode("TWIN").toUpperCase();
    theirs = await seedTenantWorld(b, { code });
    mine = await seedTenantWorld(a, { code });
  });

  /** Runs `act` and asserts none of the other tenant's rows changed. */
  async function leavesTheirsAlone(act: () => Promise<void>) {
    const before = await tenantRows(b.tenantId);
    await act();
    expect(await tenantRows(b.tenantId)).toEqual(before);
  }

  it("every raw-SQL statement of the tree is listed with the test that proves its tenant filter", () => {
    const found = { ...rawSqlCounts("server"), ...rawSqlCounts("app") };
    const listed = Object.fromEntries(Object.entries(sites).map(([file, s]) => [file, s.count]));
    expect(found, "a raw-SQL statement was added or removed: update `sites` with its proof").toEqual(listed);
    const titles = new Set<string>(Object.values(T));
    for (const [file, { proof }] of Object.entries(sites)) {
      if (proof.startsWith("none: ")) continue;
      const [other, title] = proof.includes(" > ") ? proof.split(" > ") : [null, proof];
      if (other) expect(readFileSync(path.join(root, other), "utf8"), `${file}: ${proof}`).toContain(title);
      else expect(titles.has(title), `${file}: no test "${title}"`).toBe(true);
    }
  });

  it(T.mergeTags, async () => {
    const tagged = async (world: typeof mine) => {
      const names = [`${world.code}-1`, `${world.code}-2`];
      ok(
        await request("PATCH", `${PRODUCTS}/${world.ids.product}`, {
          token: world.token,
          body: { tags: names },
        }),
      );
    };
    await tagged(theirs);
    await tagged(mine);
    await leavesTheirsAlone(async () => {
      expectProblem(
        await request("POST", `${PROVISION}admin/tags/${mine.ids.tag}/merge`, {
          token: mine.token,
          body: { intoTagId: theirs.ids.otherTag },
        }),
        404,
        "license.not_found",
      );
      const merged = ok(
        await request("POST", `${PROVISION}admin/tags/${mine.ids.tag}/merge`, {
          token: mine.token,
          body: { intoTagId: mine.ids.otherTag },
        }),
      );
      expect(merged.usageCount).toBe(1);
    });
    const twin = ok(await request("GET", `${PRODUCTS}/${theirs.ids.product}`, { token: theirs.token }));
    expect(twin.tags.sort()).toEqual([`${theirs.code}-1`, `${theirs.code}-2`]);
  });

  it(T.implicitSuite, async () => {
    const productCode = uniqueCode("PRICED").toUpperCase();
    // The other tenant's explicit suite holds the code the caller's implicit suite will want.
    const suiteOfTheirs = made(
      await request("POST", `${PROVISION}admin/suites`, {
        token: theirs.token,
        body: { code: productCode, name: "Theirs" },
      }),
    );
    const product = made(
      await request("POST", PRODUCTS, {
        token: mine.token,
        body: { name: "Priced", productCode, productVersion: "" },
      }),
    );
    await leavesTheirsAlone(async () => {
      const planSet = made(
        await request("POST", `${PROVISION}admin/usage-plans/plan-sets`, {
          token: mine.token,
          body: { productId: product.id, name: "Priced plans" },
        }),
      );
      const suite = ok(
        await request("GET", `${PROVISION}admin/suites/${planSet.suiteId}`, { token: mine.token }),
      );
      expect(suite).toMatchObject({ code: productCode, isImplicit: true });
      expect(suite.id).not.toBe(suiteOfTheirs.id);
    });
  });

  it(T.addOnCounts, async () => {
    // The other tenant grants its twin add-on once more than the caller does.
    const extra = await makeEntitlement(theirs.token, {
      name: "Granted",
      planSetId: theirs.ids.planSet,
      planName: "Basic",
    });
    made(
      await request("POST", `${ENTITLEMENTS}/${extra.id}/add-on-grants`, {
        token: theirs.token,
        body: { addOnId: theirs.ids.addOn },
      }),
    );
    const addOn = (world: typeof mine) =>
      request("GET", `${PROVISION}admin/usage-plans/add-ons/${world.ids.addOn}`, { token: world.token });
    expect(ok(await addOn(theirs)).referencedBy).toMatchObject({ entitlements: 2, offers: 1 });
    expect(ok(await addOn(mine)).referencedBy).toMatchObject({ entitlements: 1, offers: 1 });
  });

  it(T.rotateKey, async () => {
    const keysOf = (tenantId: string) =>
      testDb().signingKey.findMany({ where: { tenantId }, orderBy: { createdAt: "asc" } });
    const before = await keysOf(b.tenantId);
    await leavesTheirsAlone(async () => {
      await rotateTenantSigningKey(testDb(), a.tenantId);
    });
    expect(await keysOf(b.tenantId)).toEqual(before);
    expect((await keysOf(a.tenantId)).map((k) => k.status).sort()).toEqual(["Active", "Retired"]);
  });

  it(T.activation, async () => {
    const fingerprint = `${mine.code}-second-device`;
    const theirLicense = await activatedLicense(theirs.token, {}, fingerprint);
    const myLicense = await activatedLicense(mine.token);
    await leavesTheirsAlone(async () => {
      const again = await activated({ activationCode: myLicense.code.code, fingerprint });
      expect(again.sessionId).not.toBe(theirLicense.session.sessionId);
      expect(again.claims).toMatchObject({ tid: a.tenantId, ent: myLicense.entitlement.id });
      const same = await activated({ activationCode: myLicense.code.code, fingerprint });
      expect(same.sessionId).toBe(again.sessionId);
    });
    const devices = await tenantDb(testDb(), a.tenantId).device.findMany({
      where: { entitlementId: myLicense.entitlement.id },
    });
    expect(devices).toHaveLength(2);
  });

  it(T.sessionCalls, async () => {
    // Both tenants' worlds activated the same fingerprint; the caller works on its own session.
    await leavesTheirsAlone(async () => {
      for (const op of ["renew", "check-in", "release"] as const) {
        const res = await sessionCall(op, mine.session.sessionId, mine.session.token);
        expect(res.status, `${op}: ${res.text}`).toBe(200);
      }
      expectProblem(
        await sessionCall("renew", theirs.session.sessionId, mine.session.token),
        401,
        "license.session_token_rejected",
      );
    });
    expect(claimsOf(theirs.session.token).tid).toBe(b.tenantId);
  });

  it(T.componentMatching, async () => {
    const components = { MachineName: `${mine.code}-m`, MacAddress: `${mine.code}-mac` };
    const strategy = { claimBasedActivation: { componentMatchingStrategy: "Two", numberOfSeats: 5 } };
    const theirLicense = await licensedEntitlement(b, strategy);
    const myLicense = await licensedEntitlement(a, strategy);
    const theirFingerprint = `${mine.code}-their-machine`;
    const theirs = await activated({
      activationCode: theirLicense.code,
      fingerprint: theirFingerprint,
      components,
    });
    const first = await activated({
      activationCode: myLicense.code,
      fingerprint: `${mine.code}-mine`,
      components,
    });
    await leavesTheirsAlone(async () => {
      // A changed fingerprint with the same components: the caller's own device, re-keyed.
      const again = await activated({
        activationCode: myLicense.code,
        fingerprint: `${mine.code}-mine-changed`,
        components,
      });
      expect(again.sessionId).toBe(first.sessionId);
      expect(again.sessionId).not.toBe(theirs.sessionId);
    });
    const twin = await testDb().device.findFirstOrThrow({
      where: { entitlementId: theirLicense.entitlement.id },
    });
    expect(twin.fingerprintHistory).toBeNull();
  });

  it(T.leaseSweep, async () => {
    const live = await activatedLicense(mine.token, {}, `${mine.code}-swept`);
    const ending = await activatedLicense(theirs.token, {}, `${mine.code}-swept`);
    // An expired grace: a state no API produces without waiting a day, so it is written directly.
    await testDb().licenseSession.update({
      where: { id: ending.session.sessionId },
      data: { graceExpiresAt: new Date(Date.now() - 60_000), leaseExpiresAt: new Date(Date.now() - 120_000) },
    });
    await sweepExpiredLeases(testDb());
    const [mineAfter, theirsAfter] = await Promise.all([
      testDb().licenseSession.findUniqueOrThrow({ where: { id: live.session.sessionId } }),
      testDb().licenseSession.findUniqueOrThrow({ where: { id: ending.session.sessionId } }),
    ]);
    expect(theirsAfter.revocationReason).toBe("LeaseExpired");
    expect(mineAfter.revokedAt).toBeNull();
  });

  it(T.codeSequence, async () => {
    const tenantWide = {
      keyIssuancePolicy: { template: "SEQ-XXXX-XXXX-XXXX-####", sequenceScope: "Tenant", sequenceStart: 1 },
    };
    const theirEntitlement = made(
      await request("POST", ENTITLEMENTS, { token: theirs.token, body: { name: "Seq", ...tenantWide } }),
    );
    const myEntitlement = made(
      await request("POST", ENTITLEMENTS, { token: mine.token, body: { name: "Seq", ...tenantWide } }),
    );
    const issue = (world: typeof mine, entitlementId: string, count: number) =>
      request("POST", `${PROVISION}operational/entitlements/${entitlementId}/activation-codes`, {
        token: world.token,
        body: { count },
      });
    const first = made(await issue(theirs, theirEntitlement.id, 1));
    await leavesTheirsAlone(async () => {
      const mineIssued = made(await issue(mine, myEntitlement.id, 3));
      expect(mineIssued.codes.map((c: { sequenceNumber: number }) => c.sequenceNumber)).toEqual([1, 2, 3]);
    });
    const next = made(await issue(theirs, theirEntitlement.id, 1));
    expect(next.codes[0].sequenceNumber).toBe(first.codes[0].sequenceNumber + 1);
  });

  it(T.balances, async () => {
    const balance = async (world: typeof mine) =>
      (
        await tenantDb(testDb(), world === mine ? a.tenantId : b.tenantId).balanceUsage.findFirstOrThrow({
          where: { monitoredAsset: { entitlementId: world.ids.entitlement, metricName: "ai-credits" } },
        })
      ).totalCredits.toString();
    const url = (world: typeof mine, op: string) =>
      `${PROVISION}operational/entitlements/${world.ids.entitlement}/balances/ai-credits/${op}`;
    await leavesTheirsAlone(async () => {
      for (const op of ["deposit", "withdraw", "set"]) {
        expectProblem(
          await request("POST", url(theirs, op), { token: mine.token, body: { amount: 5 } }),
          404,
          "license.not_found",
        );
      }
      ok(await request("POST", url(mine, "deposit"), { token: mine.token, body: { amount: 50 } }));
      ok(await request("POST", url(mine, "withdraw"), { token: mine.token, body: { amount: 20 } }));
      expect(await balance(mine)).toBe("1030");
      ok(await request("POST", url(mine, "set"), { token: mine.token, body: { amount: 7 } }));
      expect(await balance(mine)).toBe("7");
    });
    expect(await balance(theirs)).toBe("1000");
  });

  it(T.outbox, async () => {
    const envelopes = (tenantId: string) => testDb().webhookEnvelope.count({ where: { tenantId } });
    const theirsBefore = await envelopes(b.tenantId);
    const mineBefore = await envelopes(a.tenantId);
    const user = made(
      await request("POST", CUSTOMER_USERS, {
        token: mine.token,
        body: { email: `${mine.code.toLowerCase()}-outbox@example.com` },
      }),
    );
    expect(await envelopes(b.tenantId)).toBe(theirsBefore);
    expect(await envelopes(a.tenantId)).toBe(mineBefore + 1);
    expect(
      await testDb().webhookEnvelope.findFirst({ where: { tenantId: a.tenantId, entityId: user.id } }),
    ).toMatchObject({ type: "User.Created" });
  });

  it(T.deliver, async () => {
    // A delivery of the other tenant held in `sending` (as a claim leaves it, its lease far ahead
    // so no sweeper takes it back), on a capture subscription so no worker ever claims it.
    const subscription = await captureSubscription(theirs.token, { eventTypePatterns: ["User.Created"] });
    const envelope = await emit(b, "User.Created");
    await fanOutEnvelope(systemContext(testDb(), b.tenantId, "test"), envelope.id);
    const delivery = await testDb().webhookDelivery.findFirstOrThrow({
      where: { envelopeId: envelope.id, subscriptionId: subscription },
    });
    await testDb().webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "sending", attemptCount: 1, leaseExpiresAt: new Date(Date.now() + 3_600_000) },
    });
    const attempt: AttemptResult = {
      delivery: {
        id: delivery.id,
        tenantId: b.tenantId,
        envelopeId: envelope.id,
        eventType: "User.Created",
        scheduleOffset: 0,
        attemptNumber: 1,
        payload: "{}",
        subscription: {
          id: subscription,
          tenantId: b.tenantId,
          url: "https://example.invalid/",
          callbackScopes: [],
          secretSealed: null,
          previousSecretSealed: null,
          previousSecretExpiresAt: null,
        },
      },
      headers: {},
      result: { ok: true, status: 200, headers: {}, durationMs: 1, body: "", error: null },
      finishedAt: new Date(),
    };
    const status = async () =>
      (await testDb().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).status;
    const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
    try {
      // Under the caller's tenant, neither the one-attempt record nor the batch record moves it.
      await recordAttempt(systemContext(testDb(), a.tenantId, "test"), attempt);
      await recordSucceededAttempts(sqlOnPool(pool), [
        { ...attempt, delivery: { ...attempt.delivery, tenantId: a.tenantId } },
      ]);
      expect(await status()).toBe("sending");
      // Under its own tenant, the same batch record does.
      await recordSucceededAttempts(sqlOnPool(pool), [attempt]);
      expect(await status()).toBe("succeeded");
    } finally {
      await pool.end();
    }
  });

  it(T.idempotency, async () => {
    const key = `key-${uniqueCode("idem")}`;
    const create = (world: typeof mine) =>
      request("POST", `${PROVISION}admin/tags`, {
        token: world.token,
        body: { name: `${key}`, scope: "Offer" },
        headers: { "idempotency-key": key },
      });
    const theirsTag = made(await create(theirs));
    await leavesTheirsAlone(async () => {
      const mineTag = made(await create(mine));
      expect(mineTag.id).not.toBe(theirsTag.id);
      expect(made(await create(mine)).id).toBe(mineTag.id);
    });
  });
  it(T.fanOut, async () => {
    const theirsHook = await captureSubscription(theirs.token, { eventTypePatterns: ["User.Created"] });
    const mineHook = await captureSubscription(mine.token, { eventTypePatterns: ["User.Created"] });
    const envelope = await emit(a, "User.Created");
    await leavesTheirsAlone(async () => {
      await fanOutEnvelope(systemContext(testDb(), a.tenantId, "test"), envelope.id);
    });
    const deliveries = await testDb().webhookDelivery.findMany({ where: { envelopeId: envelope.id } });
    expect(deliveries.map((d) => d.subscriptionId)).toEqual([mineHook]);
    expect(deliveries.map((d) => d.subscriptionId)).not.toContain(theirsHook);
  });

  it(T.sendLimit, async () => {
    const hook = async (world: typeof mine) =>
      captureSubscription(world.token, { eventTypePatterns: ["User.Created"] });
    const [theirsHook, mineHook] = [await hook(theirs), await hook(mine)];
    const testFire = (world: typeof mine, id: string) =>
      request("POST", `/api/v1/webhooks/subscriptions/${id}/test-fire`, { token: world.token, body: {} });
    // The other tenant spends most of its subscription's minute; the caller's own allowance is whole.
    for (let i = 0; i < 9; i++) expect((await testFire(theirs, theirsHook)).status).toBe(202);
    for (let i = 0; i < 10; i++) expect((await testFire(mine, mineHook)).status).toBe(202);
    expectProblem(await testFire(mine, mineHook), 429, "subscription.send_rate_limited");
    expect((await testFire(theirs, theirsHook)).status).toBe(202);
  });

  it(T.locks, async () => {
    const hooks = { theirs: "", mine: "" };
    hooks.theirs = await captureSubscription(theirs.token);
    hooks.mine = await captureSubscription(mine.token);
    const t = theirs.ids;
    const m = mine.ids;
    // [site, method, path, body] of a call on the other tenant's ids, then the same on the caller's.
    const calls: [string, string, (ids: Record<string, string>) => string, unknown?][] = [
      ["product-lock", "PATCH", (i) => `${PRODUCTS}/${i.product}`, { description: "x" }],
      ["suite-lock", "PATCH", (i) => `${PROVISION}admin/suites/${i.suite}`, { description: "x" }],
      ["write-offer", "PATCH", (i) => `${PROVISION}admin/offers/${i.offer}`, { description: "x" }],
      ["entitlement-lock", "PATCH", (i) => `${ENTITLEMENTS}/${i.entitlement}`, { description: "x" }],
      [
        "customer-organizations",
        "PATCH",
        (i) => `${PROVISION}admin/customers/organizations/${i.organization}`,
        { country: "DE" },
      ],
      [
        "customer-users",
        "PATCH",
        (i) => `${PROVISION}admin/customers/users/${i.customerUser}`,
        { firstName: "Ann" },
      ],
      [
        "add-on-grants",
        "POST",
        (i) => `${PROVISION}admin/offers/${i.offer}/add-on-grants`,
        { addOnId: "$addOn" },
      ],
      [
        "entitlement-lock (row)",
        "POST",
        (i) => `${PROVISION}operational/entitlements/${i.entitlement}/devices/reset`,
      ],
      [
        "plan-change-requests",
        "POST",
        (i) => `${PROVISION}admin/plan-change-requests/${i.planChangeRequest}/review`,
        { approved: false },
      ],
      [
        "add-add-on-feature",
        "POST",
        (i) => `${PROVISION}admin/usage-plans/add-ons/${i.addOn}/features/${i.otherFeature}`,
      ],
      ["offer-lifecycle", "DELETE", (i) => `${PROVISION}admin/offers/${i.offer}`],
      ["delete-add-on", "DELETE", (i) => `${PROVISION}admin/usage-plans/add-ons/${i.addOn}`],
      ["delete-feature-catalog-entry", "DELETE", (i) => `${PROVISION}admin/feature-catalog/${i.feature}`],
      ["delete-subscription", "DELETE", (i) => `/api/v1/webhooks/subscriptions/${i.subscription}`],
    ];
    const withIds = (ids: Record<string, string>, sub: string, world: typeof mine) => ({
      ...ids,
      subscription: sub,
      otherFeature: world.cat.sso.id,
    });
    const bodyFor = (body: unknown, ids: Record<string, string>) =>
      body && typeof body === "object" && "addOnId" in body ? { addOnId: ids.addOn } : body;
    for (const [site, method, pathOf, body] of calls) {
      const foreign = withIds(t, hooks.theirs, theirs);
      const own = withIds(m, hooks.mine, mine);
      await leavesTheirsAlone(async () => {
        const res = await request(method, pathOf(foreign), { token: mine.token, body: bodyFor(body, own) });
        expectProblem(res, 404, "license.not_found");
        const ownRes = await request(method, pathOf(own), { token: mine.token, body: bodyFor(body, own) });
        expect(ownRes.status, `${site}: ${ownRes.text}`).toBeLessThan(500);
        expect(ownRes.status, `${site}: ${ownRes.text}`).not.toBe(404);
      });
    }
  });
});
