import { randomUUID } from "node:crypto";
import { Logger, quickAddJob, runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { testDatabaseUrl, useProcessDatabase } from "../../helpers/db.ts";
import {
  CUSTOMER_USERS,
  ENTITLEMENTS,
  entitlementCatalog,
  makeEntitlement,
  makeOffer,
  ok,
} from "../../helpers/entitlements.ts";
import { ACTIVATIONS } from "../../helpers/runtime.ts";
import { taskList } from "../../../server/jobs/index.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { fingerprintHash, insertEntitlementBalance } from "../../helpers/licensing-fixtures.ts";
import { consume, ok200, record, uploadEntitlement } from "../../helpers/metering.ts";

const TRY = `${ACTIVATIONS}/anonymous-try`;
const OP = "/api/v1/provision/operational/entitlements";
const SESSIONS = "/api/v1/provision/admin/sessions/activations";
const DAY = 86_400_000;
const quiet = new Logger(() => () => {});

describe("anonymous try (allowAnonymousTry offers)", () => {
  let tenant: TestTenant;
  let other: TestTenant;
  let token: string;
  let cat: Awaited<ReturnType<typeof entitlementCatalog>>;
  let offer: { id: string };
  let restoreProcessDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    // The purge job's handler uses the process-wide client, as in the worker process.
    restoreProcessDatabase = useProcessDatabase(testDatabaseUrl());
    tenant = await createTestTenant("Anonymous try");
    other = await createTestTenant("Anonymous try other");
    cat = await entitlementCatalog(tenant);
    token = cat.token;
    offer = await makeOffer(token, {
      name: "Studio trial",
      productIds: [cat.product.id],
      planSetId: cat.planSet.id,
      planName: "Pro",
      allowAnonymousTry: true,
      validityDays: 14,
      // Seats to spare, so that only the try code's device limit can refuse a second device.
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 3,
        isFloatingLicense: false,
      },
    });
  });
  afterAll(async () => restoreProcessDatabase?.());

  const tryOut = (fingerprint: string, offerId = offer.id) =>
    request("POST", TRY, { body: { offerId, fingerprint, deviceName: "Laptop" } });
  const entitlement = (id: string) => request("GET", `${ENTITLEMENTS}/${id}`, { token });
  const triesOf = (offerId: string) =>
    testDb().entitlement.count({
      where: { tenantId: tenant.tenantId, sourceOfferId: offerId, isAnonymousTry: true },
    });

  it("an allowAnonymousTry offer issues a device an anonymous trial entitlement and activates it", async () => {
    const before = Date.now();
    const res = ok(await tryOut(`device-${randomUUID()}`));
    expect(res).toMatchObject({
      sessionId: expect.any(String),
      token: expect.any(String),
      activationCode: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/),
      license: { state: "Trial", products: [{ id: cat.product.id }] },
    });
    const { anonymousTry } = res;
    const issuedAt = Date.parse(anonymousTry.anonymousTryIssuedAt);
    expect(issuedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(anonymousTry.expirationDateTime) - issuedAt).toBe(14 * DAY);
    expect(
      Date.parse(anonymousTry.anonymousTryPurgeDueAt) - Date.parse(anonymousTry.expirationDateTime),
    ).toBe(30 * DAY);
    expect(ok(await entitlement(anonymousTry.entitlementId))).toMatchObject({
      status: "Published",
      isAnonymousTry: true,
      isEntitlementTrial: true,
      customerId: null,
      sourceOfferId: offer.id,
      planName: "Pro",
      convertedToEntitlementId: null,
      anonymousTryIssuedAt: anonymousTry.anonymousTryIssuedAt,
      anonymousTryPurgeDueAt: anonymousTry.anonymousTryPurgeDueAt,
    });
  });

  it("the same device asking again gets its try and session back, never a second try, even when asking in parallel", async () => {
    const fingerprint = `device-${randomUUID()}`;
    const answers = await Promise.all([1, 2, 3, 4].map(() => tryOut(fingerprint)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(new Set(answers.map((a) => a.body.anonymousTry.entitlementId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.sessionId)).size).toBe(1);
    const again = ok(await tryOut(fingerprint));
    expect(again.sessionId).toBe(answers[0].body.sessionId);
    expect(again.activationCode).toBe(answers[0].body.activationCode);
    const claims = await testDb().anonymousTryClaim.count({
      where: {
        tenantId: tenant.tenantId,
        offerId: offer.id,
        entitlementId: again.anonymousTry.entitlementId,
      },
    });
    expect(claims).toBe(1);
  });

  it("the try's activation code admits only the device it was issued to", async () => {
    const mine = ok(await tryOut(`device-${randomUUID()}`));
    const other = await request("POST", `${ACTIVATIONS}/license`, {
      body: { activationCode: mine.activationCode, fingerprint: `thief-${randomUUID()}` },
    });
    expectProblem(other, 409, "license.device_limit_reached");
  });

  it("an offer without allowAnonymousTry is 403 anonymous_try.not_allowed; an unknown, Draft or foreign-looking offer id is 404; nothing is issued", async () => {
    const plain = await makeOffer(token, { name: "No try", productIds: [cat.product.id] });
    expectProblem(await tryOut(`device-${randomUUID()}`, plain.id), 403, "anonymous_try.not_allowed");
    const draft = await makeOffer(
      token,
      { name: "Draft try", productIds: [cat.product.id], allowAnonymousTry: true },
      false,
    );
    expectProblem(await tryOut(`device-${randomUUID()}`, draft.id), 404, "license.not_found");
    expectProblem(await tryOut(`device-${randomUUID()}`, randomUUID()), 404, "license.not_found");
    expectProblem(
      await request("POST", TRY, { body: { offerId: offer.id } }),
      400,
      "license.validation_error",
    );
    expect(await triesOf(plain.id)).toBe(0);
    expect(await triesOf(draft.id)).toBe(0);
  });

  it("the session read model flags a session of an anonymous try (isAnonymousTry, derived from the entitlement)", async () => {
    const res = ok(await tryOut(`device-${randomUUID()}`));
    const sessionToken = await tenant.token("provision.session.read");
    const list = ok(
      await request("GET", `${SESSIONS}?filter=entitlementId==${res.anonymousTry.entitlementId}`, {
        token: sessionToken,
      }),
    );
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: res.sessionId, isAnonymousTry: true, isTrial: true });
  });

  it("buying converts the try: POST /admin/entitlements with anonymousTryId sets convertedToEntitlementId and ends the purge", async () => {
    const res = ok(await tryOut(`device-${randomUUID()}`));
    const bought = await makeEntitlement(token, {
      offerId: offer.id,
      anonymousTryId: res.anonymousTry.entitlementId,
    });
    expect(ok(await entitlement(res.anonymousTry.entitlementId))).toMatchObject({
      isAnonymousTry: true,
      convertedToEntitlementId: bought.id,
      anonymousTryPurgeDueAt: null,
    });
    expect(bought).toMatchObject({ isAnonymousTry: false, sourceOfferId: offer.id });
  });

  it("registering converts the try to the entitlement its offer issues on registration", async () => {
    const registering = await makeOffer(token, {
      name: "Try then register",
      productIds: [cat.product.id],
      allowAnonymousTry: true,
      issueOnUserRegistration: true,
      validityDays: 7,
    });
    const res = ok(await tryOut(`device-${randomUUID()}`, registering.id));
    const customerToken = await tenant.token("provision.customer.*");
    const user = ok(
      await request("POST", CUSTOMER_USERS, {
        token: customerToken,
        body: { email: `reg-${randomUUID()}@example.com`, anonymousTryId: res.anonymousTry.entitlementId },
      }),
      201,
    );
    const issued = ok(
      await request("GET", `${ENTITLEMENTS}?filter=customerId==${user.id},sourceOfferId==${registering.id}`, {
        token,
      }),
    );
    expect(issued.items).toHaveLength(1);
    expect(ok(await entitlement(res.anonymousTry.entitlementId)).convertedToEntitlementId).toBe(
      issued.items[0].id,
    );
  });

  it("POST /operational/entitlements/{id}/convert converts a try once: the same target again changes nothing, another is 409", async () => {
    const res = ok(await tryOut(`device-${randomUUID()}`));
    const tryId = res.anonymousTry.entitlementId;
    const first = await makeEntitlement(token, { name: "Bought", productIds: [cat.product.id] });
    const second = await makeEntitlement(token, { name: "Bought twice", productIds: [cat.product.id] });
    const opToken = await tenant.token("provision.entitlement-adm.create");
    const convert = (target: string, id = tryId, t = opToken) =>
      request("POST", `${OP}/${id}/convert`, { token: t, body: { convertedToEntitlementId: target } });
    const converted = ok(await convert(first.id));
    expect(converted).toMatchObject({
      id: tryId,
      convertedToEntitlementId: first.id,
      anonymousTryPurgeDueAt: null,
    });
    const again = ok(await convert(first.id));
    expect(again.revisionNumber).toBe(converted.revisionNumber);
    expectProblem(await convert(second.id), 409, "anonymous_try.already_converted");
    expectProblem(await convert(second.id, first.id), 400, "anonymous_try.not_anonymous_try");

    const another = ok(await tryOut(`device-${randomUUID()}`));
    expectProblem(
      await convert(tryId, another.anonymousTry.entitlementId),
      400,
      "anonymous_try.invalid_conversion_target",
    );
    expectProblem(
      await convert(another.anonymousTry.entitlementId, another.anonymousTry.entitlementId),
      400,
      "anonymous_try.invalid_conversion_target",
    );
    expectProblem(await convert(randomUUID(), another.anonymousTry.entitlementId), 404, "license.not_found");
    expectProblem(
      await convert(first.id, another.anonymousTry.entitlementId, ""),
      401,
      "auth.unauthenticated",
    );
    const readOnly = await tenant.token("provision.entitlement-adm.read");
    expectProblem(
      await convert(first.id, another.anonymousTry.entitlementId, readOnly),
      403,
      "auth.insufficient_scope",
    );
    const foreign = await other.token("provision.entitlement-adm.create");
    expectProblem(
      await convert(first.id, another.anonymousTry.entitlementId, foreign),
      404,
      "license.not_found",
    );
    expect(ok(await entitlement(another.anonymousTry.entitlementId)).convertedToEntitlementId).toBeNull();
  });

  /**
   * Metering rows on a try, made the way the service makes them where it can: an asset copy with
   * a meter (arranged, as the entitlements work copies one) used through the try's own session (a
   * consume with an idempotency key) and the vendor's usage upload; a credit balance topped up by
   * the operational deposit; an auto-balance run and a rating answer arranged. Returns the asset
   * copies' ids.
   */
  async function meterTheTry(t: {
    token: string;
    sessionId: string;
    anonymousTry: { entitlementId: string };
  }) {
    const id = t.anonymousTry.entitlementId;
    const scoped = tenantDb(testDb(), tenant.tenantId);
    const meter = await scoped.monitoredAsset.create({
      data: {
        tenantId: tenant.tenantId,
        ownerKind: "Entitlement",
        ownerId: id,
        entitlementId: id,
        ownerStatus: "Published",
        metricName: "renders",
        name: "Renders",
      },
    });
    await scoped.meteredUsage.create({
      data: { tenantId: tenant.tenantId, monitoredAssetId: meter.id, usageTiers: [] },
    });
    const consumed = ok200(await consume(t, "renders", 2, { idempotencyKey: `k-${randomUUID()}` }));
    expect(consumed.allowed).toBe(true);
    const usageToken = await tenant.token("provision.usage.create");
    const uploaded = ok200(
      await uploadEntitlement(usageToken, id, [
        record({ eventName: "renders", eventData: { amount: 3 } }),
        record({ eventName: "renders", eventData: { amount: 4 } }),
        record({ eventName: "unknown-metric" }),
      ]),
    );
    expect(uploaded.counted).toBe(2);
    const { balance } = await insertEntitlementBalance(tenant, id, {
      metricName: "credits",
      totalCredits: 10,
    });
    const balanceToken = await tenant.token("provision.balance.*");
    ok(
      await request("POST", `${OP}/${id}/balances/credits/deposit`, {
        token: balanceToken,
        body: { amount: 5 },
      }),
    );
    await scoped.autoBalanceRun.create({
      data: {
        tenantId: tenant.tenantId,
        balanceUsageId: balance.id,
        scheduledAt: new Date(),
        entitlementId: id,
        metricName: "credits",
        remainingBefore: 15,
        creditsTransferred: 0,
        creditsAdded: 0,
        remainingAfter: 15,
        ranAt: new Date(),
      },
    });
    await scoped.featureRating.create({
      data: {
        tenantId: tenant.tenantId,
        campaignId: randomUUID(),
        featureCatalogId: randomUUID(),
        entitlementId: id,
        sessionId: t.sessionId,
        rating: 5,
        answeredAt: new Date(),
      },
    });
    return [meter.id, balance.monitoredAssetId];
  }

  /** Every row a try owns, by table (0 everywhere once purged). */
  async function rowsOf(entitlementId: string, assetIds: string[]) {
    const t = testDb();
    const scoped = { tenantId: tenant.tenantId, entitlementId };
    const byAsset = { tenantId: tenant.tenantId, monitoredAssetId: { in: assetIds } };
    return {
      entitlement: await t.entitlement.count({ where: { id: entitlementId } }),
      sessions: await t.licenseSession.count({ where: scoped }),
      devices: await t.device.count({ where: scoped }),
      codes: await t.activationCode.count({ where: scoped }),
      planHistory: await t.entitlementPlanHistory.count({ where: scoped }),
      billing: await t.entitlementBilling.count({ where: scoped }),
      assets: await t.monitoredAsset.count({ where: scoped }),
      meteredUsages: await t.meteredUsage.count({ where: byAsset }),
      balances: await t.balanceUsage.count({ where: byAsset }),
      usageRecords: await t.usageRecord.count({ where: scoped }),
      consumeEntries: await t.consumeEntry.count({ where: byAsset }),
      consumeKeys: await t.consumeIdempotencyKey.count({ where: scoped }),
      meterPeriods: await t.meterPeriod.count({ where: scoped }),
      balanceHistory: await t.balanceHistoryEntry.count({ where: scoped }),
      autoBalanceRuns: await t.autoBalanceRun.count({ where: scoped }),
      featureRatings: await t.featureRating.count({ where: scoped }),
    };
  }

  /** Queues one run of the purge job and lets graphile-worker run it, as the worker process does. */
  async function runPurgeJob(payload: Record<string, unknown>) {
    const job = await quickAddJob(
      { connectionString: testDatabaseUrl(), logger: quiet },
      "anonymous_try_purge",
      payload,
    );
    await runOnce({ connectionString: testDatabaseUrl(), taskList, noHandleSignals: true, logger: quiet });
    for (let i = 0; i < 200; i++) {
      const left = await testDb().$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE id = ${job.id}::bigint`;
      if (left[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the purge job did not finish");
  }

  it("the worker purges a try that is due and never converted, with its sessions, devices, codes and metering rows, in bounded batches; the device gets no second try", async () => {
    const fingerprint = `device-${randomUUID()}`;
    const due = ok(await tryOut(fingerprint));
    const notDue = ok(await tryOut(`device-${randomUUID()}`));
    const converted = ok(await tryOut(`device-${randomUUID()}`));
    const dueAssets = await meterTheTry(due);
    const keptAssets = await meterTheTry(notDue);
    const bought = await makeEntitlement(token, {
      offerId: offer.id,
      anonymousTryId: converted.anonymousTry.entitlementId,
    });
    const before = await rowsOf(due.anonymousTry.entitlementId, dueAssets);
    // What the try owns before: every table of its own holds rows.
    for (const [table, n] of Object.entries(before)) expect(n, table).toBeGreaterThan(0);
    const kept = await rowsOf(notDue.anonymousTry.entitlementId, keptAssets);

    const past = new Date(Date.now() - DAY);
    // Arranged: the first try's purge date has passed; the converted one is past it too.
    await testDb().entitlement.updateMany({
      where: { id: { in: [due.anonymousTry.entitlementId, converted.anonymousTry.entitlementId] } },
      data: { anonymousTryPurgeDueAt: past },
    });

    // Three rows per transaction: the try's twenty-odd rows take several, each bounded.
    await runPurgeJob({ rowBudget: 3 });

    const gone = due.anonymousTry.entitlementId;
    expectProblem(await entitlement(gone), 404, "license.not_found");
    const after = await rowsOf(gone, dueAssets);
    expect(
      Object.values(after).every((n) => n === 0),
      JSON.stringify(after),
    ).toBe(true);
    expect(await rowsOf(notDue.anonymousTry.entitlementId, keptAssets)).toEqual(kept);
    expect(ok(await entitlement(notDue.anonymousTry.entitlementId)).isAnonymousTry).toBe(true);
    expect(ok(await entitlement(converted.anonymousTry.entitlementId)).convertedToEntitlementId).toBe(
      bought.id,
    );
    expect(
      await testDb().anonymousTryClaim.findFirst({
        where: {
          tenantId: tenant.tenantId,
          offerId: offer.id,
          fingerprintHash: fingerprintHash(fingerprint),
        },
        select: { entitlementId: true, activationCodeId: true, purgedAt: true },
      }),
    ).toEqual({ entitlementId: null, activationCodeId: null, purgedAt: expect.any(Date) });

    expectProblem(await tryOut(fingerprint), 403, "anonymous_try.already_used");
    expectProblem(
      await request("POST", `${ACTIVATIONS}/license`, {
        body: { activationCode: due.activationCode, fingerprint },
      }),
      404,
      "license.not_found",
    );
  });

  it("a purge split over several transactions archives the try first, so it can no longer be converted half-deleted, and finishes on the next run", async () => {
    const due = ok(await tryOut(`device-${randomUUID()}`));
    const assets = await meterTheTry(due);
    const id = due.anonymousTry.entitlementId;
    await testDb().entitlement.update({
      where: { id },
      data: { anonymousTryPurgeDueAt: new Date(Date.now() - DAY) },
    });
    // One transaction's worth (as if the worker stopped after it): the try is archived, part-deleted.
    await runPurgeJob({ rowBudget: 3, maxTransactions: 1 });
    expect(ok(await entitlement(id)).status).toBe("Archived");
    expect((await rowsOf(id, assets)).usageRecords).toBe(0);
    expect((await rowsOf(id, assets)).sessions).toBe(1);
    const bought = await makeEntitlement(token, { name: "Too late", productIds: [cat.product.id] });
    const opToken = await tenant.token("provision.entitlement-adm.create");
    expectProblem(
      await request("POST", `${OP}/${id}/convert`, {
        token: opToken,
        body: { convertedToEntitlementId: bought.id },
      }),
      400,
      "entitlement.archived",
    );

    await runPurgeJob({});
    const after = await rowsOf(id, assets);
    expect(
      Object.values(after).every((n) => n === 0),
      JSON.stringify(after),
    ).toBe(true);
  });
});
