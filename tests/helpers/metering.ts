import { randomUUID } from "node:crypto";
import http from "node:http";
import { expect } from "vitest";
import type { Prisma } from "../../server/db/generated/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createFeatureCatalogEntry } from "../../server/domain/catalog/feature-catalog/create-feature-catalog-entry.ts";
import { ZFeatureCatalogCreateRequest } from "../../server/domain/catalog/feature-catalog/feature-catalog.schemas.ts";
import type { TUsageTierInput } from "../../server/domain/catalog/monitored-assets/usage-tier.schemas.ts";
import { baseUrl, request, testDb, type ApiResponse, type TestTenant } from "./api.ts";
import { activated, licensedEntitlement } from "./runtime.ts";

export const USAGE = "/api/v1/provision/usage";

export type MetricSpec = {
  metricName: string;
  metricType?: "CumulativeCounter" | "Gauge" | "Maximum";
  allowedBackDatingTolerance?: string | null;
  metered?: {
    usageTiers?: TUsageTierInput[];
    consumptionPeriod?: string;
    periodAnchor?: string;
    accumulationMethod?: string;
    suspendedUntilAt?: Date | null;
  };
  balance?: {
    totalCredits?: number;
    creditsUsed?: number;
    isUnlimitedCredits?: boolean;
    usageQuota?: { endUsage: number; name: string; quotaUsageLevel: string }[];
    suspendedUntilAt?: Date | null;
    initialCreditAmount?: number;
    autoBalanceCronSchedule?: string | null;
    shouldAutoBalanceTransferCurrentCredits?: boolean;
    maxAutoBalanceCreditTransferAmount?: number | null;
    autoBalanceCreditAmount?: number | null;
  };
};

/**
 * A tier ladder used across the metering tests: `Included` up to `included`, then an
 * `Overage` tier AllowWithOverage at 1 credit per unit funded by the `credits` balance (unless
 * `overage` says otherwise).
 */
export const overageTiers = (included: number, overage: Partial<TUsageTierInput> = {}): TUsageTierInput[] => [
  { name: "Included", startUsage: 0, endUsage: included },
  {
    name: "Overage",
    startUsage: included,
    creditsPerUnitOfConsumption: 1,
    quotaUsagePolicy: "AllowWithOverage",
    fundingBalanceMetric: "credits",
    ...overage,
  },
];

/** usageQuota bands of the tests' 100-credit balances: Medium below 50, Critical below 20. */
export const mediumAndCriticalBands = [
  { endUsage: 50, name: "Low", quotaUsageLevel: "Medium" },
  { endUsage: 20, name: "Empty", quotaUsageLevel: "Critical" },
];

/** A Metered feature governing a metric: its catalog entry and the value on the license. */
export type FeatureSpec = { metricName: string; value: string | null; isEnabled?: boolean; name?: string };

const tier = (t: TUsageTierInput) => ({
  startPercentage: 0,
  endUsage: null,
  endPercentage: 0,
  baseCredits: 0,
  creditsPerUnitOfConsumption: 0,
  quotaUsageLevel: "None",
  quotaUsagePolicy: "None",
  fundingBalanceMetric: "",
  ...t,
});

/**
 * A Published license with the given meters written as the entitlements work copies them
 * (monitored-asset copies owned by the entitlement, with meteredUsage or balanceUsage), Metered
 * features with catalog entries and values, and an activation code. `session()` activates a new
 * device and answers its token and session id.
 */
export async function meteredLicense(
  tenant: TestTenant,
  spec: {
    metrics: MetricSpec[];
    features?: FeatureSpec[];
    entitlement?: Record<string, unknown>;
  },
) {
  const ctx = systemContext(testDb(), tenant.tenantId, "test");
  const productId = randomUUID();
  const features = await Promise.all(
    (spec.features ?? []).map(async (f) => {
      const code = `F_${randomUUID().slice(0, 8).toUpperCase()}`;
      const entry = await createFeatureCatalogEntry(
        ctx,
        ZFeatureCatalogCreateRequest.parse({
          featureCode: code,
          name: f.name ?? `Feature ${f.metricName}`,
          metricName: f.metricName,
          featureType: "Metered",
          lifecycleStatus: "Published",
        }),
      );
      return {
        catalogId: entry.id,
        id: randomUUID(),
        featureCode: code,
        productId,
        moduleName: null,
        name: f.name ?? `Feature ${f.metricName}`,
        description: "",
        value: f.value,
        isEnabled: f.isEnabled ?? true,
        isAvailableDuringTrialPeriod: true,
        isAvailableDuringGracePeriod: true,
        isPaidFeature: false,
        canModifyValueOnEntitlement: false,
        includeInLicenseToken: false,
        meteredAssetId: null,
        featureExpiration: null,
        catalogLifecycleStatus: "Published",
      };
    }),
  );
  const { entitlement, code } = await licensedEntitlement(tenant, {
    features: features.map(({ catalogId: _, ...f }) => f) as unknown as Prisma.InputJsonValue,
    ...(spec.entitlement ?? {}),
  });
  const assets = await writeLicenseMeters(tenant.tenantId, entitlement.id, spec.metrics);
  return {
    entitlement,
    code,
    assets,
    /** The Metered features by metric: catalog entry id and code. */
    features: Object.fromEntries(
      features.map((f, i) => [
        spec.features![i].metricName,
        { featureCatalogId: f.catalogId, featureCode: f.featureCode },
      ]),
    ),
    session: () => activated({ activationCode: code, fingerprint: `fp-${randomUUID()}` }),
  };
}

export type LicenseMeters = Record<
  string,
  { assetId: string; meteredUsageId?: string; balanceUsageId?: string }
>;

/**
 * Writes a license's meters as rows: its own monitored-asset copies with their meteredUsage and
 * balanceUsage, as copyMonitoredAssets (server/domain/entitlements/offers/template-snapshot.ts) makes
 * them when an entitlement is created from products. Written directly because the metering tests
 * set meters that no product and no API call hold as such: a balance with credits already used
 * or with total credits apart from its initial amount (only consumption and auto-balance move
 * them), tiers funded by a balance the same license lists later, and meters on a license with no
 * product behind it, so the license token's products stay the test's own.
 */
async function writeLicenseMeters(
  tenantId: string,
  entitlementId: string,
  metrics: MetricSpec[],
): Promise<LicenseMeters> {
  const db = tenantDb(testDb(), tenantId);
  const assets: LicenseMeters = {};
  for (const m of metrics) {
    const asset = await db.monitoredAsset.create({
      data: {
        tenantId,
        ownerKind: "Entitlement",
        ownerId: entitlementId,
        entitlementId,
        ownerStatus: "Published",
        productId: null,
        metricName: m.metricName,
        name: m.metricName,
        metricType: m.metricType ?? "CumulativeCounter",
        allowedBackDatingTolerance: m.allowedBackDatingTolerance ?? null,
      },
    });
    assets[m.metricName] = { assetId: asset.id };
    if (m.metered) {
      const metered = await db.meteredUsage.create({
        data: {
          tenantId,
          monitoredAssetId: asset.id,
          usageTiers: (m.metered.usageTiers ?? []).map(tier) as Prisma.InputJsonValue,
          consumptionPeriod: m.metered.consumptionPeriod ?? "",
          periodAnchor: m.metered.periodAnchor ?? "Calendar",
          accumulationMethod: m.metered.accumulationMethod ?? "Sliced",
          suspendedUntilAt: m.metered.suspendedUntilAt ?? null,
        },
      });
      assets[m.metricName].meteredUsageId = metered.id;
    }
    if (m.balance) {
      const b = m.balance;
      const balance = await db.balanceUsage.create({
        data: {
          tenantId,
          monitoredAssetId: asset.id,
          name: m.metricName,
          totalCredits: b.totalCredits ?? b.initialCreditAmount ?? 0,
          creditsUsed: b.creditsUsed ?? 0,
          initialCreditAmount: b.initialCreditAmount ?? b.totalCredits ?? 0,
          isUnlimitedCredits: b.isUnlimitedCredits ?? false,
          usageQuota: (b.usageQuota ?? []) as Prisma.InputJsonValue,
          suspendedUntilAt: b.suspendedUntilAt ?? null,
          autoBalanceCronSchedule: b.autoBalanceCronSchedule ?? null,
          shouldAutoBalanceTransferCurrentCredits: b.shouldAutoBalanceTransferCurrentCredits ?? false,
          maxAutoBalanceCreditTransferAmount: b.maxAutoBalanceCreditTransferAmount ?? null,
          autoBalanceCreditAmount: b.autoBalanceCreditAmount ?? null,
        },
      });
      assets[m.metricName].balanceUsageId = balance.id;
    }
  }
  return assets;
}

export type Session = { token: string; sessionId: string };

export const consume = (
  s: Session,
  metric: string,
  amount: number | string,
  options: { idempotencyKey?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> => {
  const q = new URLSearchParams({ amount: String(amount) });
  if (options.idempotencyKey) q.set("idempotencyKey", options.idempotencyKey);
  return request("POST", `${USAGE}/consume/${s.sessionId}/${encodeURIComponent(metric)}?${q}`, {
    token: s.token,
    headers: options.headers,
  });
};

export const previewConsume = (s: Session, metric: string, amount?: number | string) =>
  request(
    "POST",
    `${USAGE}/preview-consume/${s.sessionId}/${encodeURIComponent(metric)}${amount === undefined ? "" : `?amount=${amount}`}`,
    { token: s.token },
  );

export const meterUsage = (s: Session, metric: string) =>
  request("GET", `${USAGE}/${s.sessionId}/${encodeURIComponent(metric)}/usage`, { token: s.token });

export const meterConsumption = (s: Session, metric: string) =>
  request("GET", `${USAGE}/${s.sessionId}/${encodeURIComponent(metric)}/consumption`, { token: s.token });

let nextTransaction = Date.now() * 1000;
/** A usage transaction record; transactionIds increase across a test run. */
export function record(fields: {
  eventName?: string;
  eventData?: unknown;
  creationDateTime?: Date;
  transactionId?: number;
  sessionId?: string;
}) {
  return {
    transactionId: fields.transactionId ?? nextTransaction++,
    sessionId: fields.sessionId ?? null,
    apiVersion: 1,
    creationDateTime: (fields.creationDateTime ?? new Date()).toISOString(),
    eventName: fields.eventName ?? "UsageEvent",
    eventData:
      typeof fields.eventData === "string" ? fields.eventData : JSON.stringify(fields.eventData ?? {}),
  };
}

export const uploadSession = (s: Session, records: unknown) =>
  request("POST", `${USAGE}/sessions/${s.sessionId}/transactions`, { token: s.token, body: records });

export const uploadEntitlement = (token: string, entitlementId: string, records: unknown) =>
  request("POST", `${USAGE}/entitlements/${entitlementId}/transactions`, { token, body: records });

export const ok200 = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/**
 * One request on its own connection (node:http, no agent): for tests whose requests must really
 * run at the same time (fetch may queue requests to one origin on a few connections).
 */
export function parallelRequest(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<ApiResponse> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl()}${path}`,
      {
        method,
        agent: false,
        headers: {
          ...(body
            ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
            : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
          resolve({ status: res.statusCode ?? 0, headers, body: parsed, text });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
