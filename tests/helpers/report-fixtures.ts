import { randomUUID } from "node:crypto";
import { setClock } from "../../server/clock.ts";
import type { Db } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext, type DomainContext } from "../../server/domain/context.ts";
import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../../server/domain/catalog/products/product.schemas.ts";
import { createSuite } from "../../server/domain/pricing/suites/create-suite.ts";
import { ZSuiteCreateRequest } from "../../server/domain/pricing/suites/suite.schemas.ts";
import { createPlanSet } from "../../server/domain/pricing/plan-sets/create-plan-set.ts";
import { movePlanSetStatus } from "../../server/domain/pricing/plan-sets/move-plan-set-status.ts";
import { ZPlanSetCreateRequest } from "../../server/domain/pricing/plan-sets/plan-set.schemas.ts";
import { createEntitlement } from "../../server/domain/entitlements/entitlement/create-entitlement.ts";
import { ZEntitlementCreateRequest } from "../../server/domain/entitlements/entitlement/entitlement.schemas.ts";
import { deleteEntitlement } from "../../server/domain/entitlements/entitlement/update-entitlement.ts";
import { renewEntitlement } from "../../server/domain/entitlements/entitlement/renew-entitlement.ts";
import { assignPlan } from "../../server/domain/entitlements/plans/assign-plan.ts";
import { createFeatureCatalogEntry } from "../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { ZFeatureCatalogCreateRequest } from "../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";

/**
 * The reports' seeded data (tests/int/reports and e2e): a catalog with an Absolute plan set
 * (prices in EUR and USD, a free plan and an unpriced one) and a Relative one (weights, a zero and
 * an unweighted plan), and entitlements whose plan history happens in the first half of 2025,
 * written through the domain functions with the clock set to each moment. The figures they should
 * give are worked out by hand in tests/int/reports/reports.int.test.ts.
 */
export async function seedRevenueData(db: Db, tenantId: string) {
  const ctx = systemContext(db, tenantId, "report-fixture");
  const code = () => randomUUID().slice(0, 8).toUpperCase();
  const product = (name: string) =>
    createProduct(ctx, ZProductCreateRequest.parse({ name, productCode: `${name.toUpperCase()}-${code()}` }));
  const [writer, calc, draw] = [await product("Writer"), await product("Calc"), await product("Draw")];
  const suite = async (name: string, memberProductIds: string[]) =>
    createSuite(ctx, ZSuiteCreateRequest.parse({ code: `${name}-${code()}`, name, memberProductIds }));
  const office = await suite("Office", [writer.id, calc.id]);
  const studio = await suite("Studio", [draw.id]);
  const items = (included: string[], all: string[]) =>
    all.map((productId) => ({ productId, included: included.includes(productId) }));
  const both = [writer.id, calc.id];
  const absolute = await createPlanSet(
    ctx,
    ZPlanSetCreateRequest.parse({
      suiteId: office.id,
      name: "Office plans",
      plans: [
        {
          name: "Basic",
          pricingMode: "Absolute",
          monthlyPrice: 10,
          currency: "EUR",
          lineItems: items([writer.id], both),
        },
        {
          name: "Pro",
          pricingMode: "Absolute",
          monthlyPrice: 25.5,
          currency: "EUR",
          lineItems: items(both, both),
        },
        {
          name: "Team",
          pricingMode: "Absolute",
          monthlyPrice: 100,
          currency: "USD",
          lineItems: items(both, both),
        },
        { name: "Free", pricingMode: "Absolute", monthlyPrice: 0, lineItems: items([writer.id], both) },
        {
          name: "Unpriced",
          pricingMode: "Absolute",
          monthlyPrice: null,
          lineItems: items([writer.id], both),
        },
      ],
    }),
  );
  await movePlanSetStatus(ctx, absolute.id, "Published");
  const relative = await createPlanSet(
    ctx,
    ZPlanSetCreateRequest.parse({
      suiteId: studio.id,
      name: "Studio plans",
      plans: [
        { name: "Small", pricingMode: "Relative", relativeWeight: 1, lineItems: [{ productId: draw.id }] },
        { name: "Large", pricingMode: "Relative", relativeWeight: 3, lineItems: [{ productId: draw.id }] },
        { name: "Zero", pricingMode: "Relative", relativeWeight: 0, lineItems: [{ productId: draw.id }] },
        {
          name: "Unweighted",
          pricingMode: "Relative",
          relativeWeight: null,
          lineItems: [{ productId: draw.id }],
        },
      ],
    }),
  );
  await movePlanSetStatus(ctx, relative.id, "Published");

  const at = (iso: string) => setClock({ fixed: new Date(iso) });
  const issue = async (
    when: string,
    planSetId: string,
    planName: string,
    fields: Record<string, unknown> = {},
  ) => {
    at(when);
    const entitlement = await createEntitlement(
      ctx,
      ZEntitlementCreateRequest.parse({
        name: `${planName} ${code()}`,
        productIds: planSetId === absolute.id ? [writer.id] : [draw.id],
        planSetId,
        planName,
        ...fields,
      }),
    );
    return entitlement.id;
  };
  try {
    const ids = {
      e1: await issue("2024-12-01T00:00:00Z", absolute.id, "Basic"),
      e2: await issue("2025-02-15T00:00:00Z", absolute.id, "Basic", {
        expirationDateTime: "2025-04-16T00:00:00Z",
      }),
      e3: await issue("2025-01-01T00:00:00Z", absolute.id, "Pro"),
      e4: await issue("2025-01-01T00:00:00Z", absolute.id, "Unpriced"),
      e5: await issue("2025-03-01T00:00:00Z", absolute.id, "Free"),
      e6: await issue("2025-01-01T00:00:00Z", absolute.id, "Basic", { isEntitlementTrial: true }),
      e7: await issue("2025-01-01T00:00:00Z", absolute.id, "Basic", { status: "Draft" }),
      e8: await issue("2025-01-01T00:00:00Z", absolute.id, "Basic"),
      e9: await issue("2025-01-01T00:00:00Z", absolute.id, "Basic", {
        expirationDateTime: "2025-02-01T00:00:00Z",
      }),
      e10: await issue("2025-05-01T00:00:00Z", absolute.id, "Pro", {
        notValidBeforeDateTime: "2025-06-01T00:00:00Z",
      }),
      r1: await issue("2025-01-01T00:00:00Z", relative.id, "Small"),
      r2: await issue("2025-04-01T00:00:00Z", relative.id, "Large"),
      r3: await issue("2025-01-01T00:00:00Z", relative.id, "Unweighted"),
      r4: await issue("2025-01-01T00:00:00Z", relative.id, "Zero"),
    };
    at("2025-04-01T00:00:00Z");
    await assignPlan(ctx, ids.e3, { planSetId: absolute.id, planName: "Team", source: "ManualAdminAction" });
    at("2025-03-01T00:00:00Z");
    await deleteEntitlement(ctx, ids.e8);
    await renewEntitlement(ctx, ids.e9, { expirationDateTime: "2025-12-31T00:00:00Z" });
    return { ids, products: { writer, calc, draw }, planSets: { absolute, relative } };
  } finally {
    setClock({ fixed: null });
  }
}

type SessionSeed = {
  entitlementId: string;
  device: string;
  activatedAt: string;
  seatHeldUntil: string;
  revokedAt?: string;
  activationKind?: "Online" | "Offline";
};

/**
 * A license row in force from `inForceFrom`, for the reports' history. Written directly: the
 * reports count a license from its createdAt, which createEntitlement stamps with the database's
 * now(), and the value report's license holds no seats (numberOfSeats 0, below what the API
 * accepts) so the seat reports of the same vendor count only the sessions' license; an
 * anonymous-try license is made only by an anonymous activation. The columns are those
 * createEntitlement writes for a direct entitlement with no products.
 */
export async function insertLicense(
  ctx: DomainContext,
  fields: {
    name: string;
    seats: number;
    inForceFrom: string;
    isEntitlementTrial?: boolean;
    isAnonymousTry?: boolean;
  },
) {
  const from = new Date(fields.inForceFrom);
  return ctx.db.entitlement.create({
    data: {
      tenantId: ctx.tenantId,
      name: fields.name,
      features: [],
      activationPolicy: {},
      keyIssuancePolicy: {},
      productIds: [],
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: fields.seats,
        isFloatingLicense: true,
      },
      notValidBeforeDateTime: from,
      createdAt: from,
      isEntitlementTrial: fields.isEntitlementTrial ?? false,
      isAnonymousTry: fields.isAnonymousTry ?? false,
    },
  });
}

/**
 * Sessions with the given past times (one device row per named device and license), for the
 * activation and seat reports. Written directly: activation stamps a session with the time it
 * runs, and the reports read months of history. The columns are those activation writes for an
 * online (or offline) session; a revoked one is a released seat.
 */
export async function insertSessions(db: Db, tenantId: string, sessions: SessionSeed[]) {
  const scoped = tenantDb(db, tenantId);
  const devices = new Map<string, string>();
  for (const s of sessions) {
    const key = `${s.entitlementId}|${s.device}`;
    if (!devices.has(key)) {
      const device = await scoped.device.create({
        data: { tenantId, entitlementId: s.entitlementId, fingerprintHash: `${s.device}-${randomUUID()}` },
      });
      devices.set(key, device.id);
    }
    await scoped.licenseSession.create({
      data: {
        tenantId,
        entitlementId: s.entitlementId,
        deviceId: devices.get(key)!,
        productIds: [],
        activatedAt: new Date(s.activatedAt),
        leaseExpiresAt: new Date(s.seatHeldUntil),
        graceExpiresAt: new Date(s.seatHeldUntil),
        seatHeldUntil: new Date(s.seatHeldUntil),
        revokedAt: s.revokedAt ? new Date(s.revokedAt) : null,
        revocationReason: s.revokedAt ? "Released" : "None",
        activationKind: s.activationKind ?? "Online",
      },
    });
  }
}

/**
 * The value-delivered report's seeded data (e2e): Metered catalog entries `api-calls` (valueScore
 * 0.5) and `exports` (no valueScore), and a license whose meters were used in early March 2025.
 * The ledger rows are written directly with the times given (usage uploads refuse records older
 * than 90 days, and consumes happen now), as consumption (consumeEntry) and a counted usage
 * upload (usageRecord) write them; the meters are the license's own monitored-asset copies, as
 * copyMonitoredAssets makes them from a product's, written directly as the license above has no
 * products. Consumes of 100 api-calls on 1 March and 60 on 2 March, an uploaded record of 40 on
 * 2 March, 7 exports on 1 March. Over [1 March, 4 March) by day:
 * api-calls 100 | 100 → 200 × 0.5 = value 100; exports 7, not valued.
 */
export async function seedValueData(db: Db, tenantId: string) {
  const ctx = systemContext(db, tenantId, "report-fixture");
  const scoped = tenantDb(db, tenantId);
  const code = () => randomUUID().slice(0, 8).toUpperCase();
  const entry = (name: string, metricName: string, valueScore: number | null) =>
    createFeatureCatalogEntry(
      ctx,
      ZFeatureCatalogCreateRequest.parse({
        featureCode: `${metricName.toUpperCase().replace("-", "_")}_${code()}`,
        name,
        metricName,
        featureType: "Metered",
        valueScore,
      }),
    );
  const features = {
    api: await entry("API calls", "api-calls", 0.5),
    exports: await entry("Exports", "exports", null),
  };
  const license = await insertLicense(ctx, {
    name: "Metered license",
    // No seats: the seat reports of the same vendor (e2e) count only the sessions' license.
    seats: 0,
    inForceFrom: "2025-01-01T00:00:00Z",
  });
  const meter = (metricName: string) =>
    scoped.monitoredAsset.create({
      data: {
        tenantId,
        ownerKind: "Entitlement",
        ownerId: license.id,
        entitlementId: license.id,
        ownerStatus: "Published",
        metricName,
        name: metricName,
      },
    });
  const meters = { api: await meter("api-calls"), exports: await meter("exports") };
  const consumed = (asset: { id: string; metricName: string }, amount: number, at: string) =>
    scoped.consumeEntry.create({
      data: {
        tenantId,
        id: randomUUID(),
        entitlementId: license.id,
        sessionId: randomUUID(),
        monitoredAssetId: asset.id,
        metricName: asset.metricName,
        amount,
        periodKey: "lifetime",
        usageAfter: amount,
        severity: "None",
        createdAt: new Date(at),
      },
    });
  await consumed(meters.api, 100, "2025-03-01T10:00:00Z");
  await consumed(meters.api, 60, "2025-03-02T10:00:00Z");
  await consumed(meters.exports, 7, "2025-03-01T11:00:00Z");
  await scoped.usageRecord.create({
    data: {
      tenantId,
      entitlementId: license.id,
      transactionId: 1n,
      apiVersion: 1,
      creationDateTime: new Date("2025-03-02T12:00:00Z"),
      eventName: "api-calls",
      eventData: JSON.stringify({ amount: 40 }),
      status: "Counted",
      monitoredAssetId: meters.api.id,
      metricName: "api-calls",
      amount: 40,
      periodKey: "lifetime",
      receivedAt: new Date("2025-03-02T12:00:00Z"),
    },
  });
  return { license, features };
}
