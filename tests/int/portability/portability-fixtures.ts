import { expect } from "vitest";
import { request, testDb, type TestTenant } from "../../helpers/api.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { DomainContext } from "../../../server/domain/context.ts";
import { sectionNames } from "../../../server/domain/portability/snapshot/sections.ts";
import { seedDemoCatalogInto } from "./demo-catalog.ts";

export const EXPORT = "/api/v1/provision/admin/catalog/export";
export const IMPORT = "/api/v1/provision/admin/catalog/import";

/** An export request selecting every section entirely. */
export const everything = () => Object.fromEntries(sectionNames.map((s) => [s, { mode: "All" }]));

export function domainContext(tenantId: string): DomainContext {
  return { tenantId, db: tenantDb(testDb(), tenantId), actor: { kind: "system", id: "test" } };
}

/** A tenant with the demo catalog (demo-catalog.ts); the context to arrange more with. */
export async function seedDemoCatalog(tenant: TestTenant): Promise<DomainContext> {
  const ctx = domainContext(tenant.tenantId);
  await seedDemoCatalogInto(ctx);
  return ctx;
}

export async function exportCatalog(token: string, body: Record<string, unknown>) {
  const res = await request("POST", EXPORT, { token, body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function importCatalog(
  token: string,
  body: unknown,
  query: { dryRun?: boolean; conflictMode?: string; compare?: boolean } = {},
) {
  const params = new URLSearchParams();
  if (query.dryRun !== undefined) params.set("dryRun", String(query.dryRun));
  if (query.conflictMode) params.set("conflictMode", query.conflictMode);
  if (query.compare !== undefined) params.set("compare", String(query.compare));
  return request("POST", `${IMPORT}${params.size ? `?${params}` : ""}`, { token, body });
}

export async function importOk(
  token: string,
  body: unknown,
  query: Parameters<typeof importCatalog>[2] = {},
) {
  const res = await importCatalog(token, body, query);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The result of one section of an import result. */
export const sectionOf = (result: { sections: { section: string }[] }, section: string) =>
  result.sections.find((s) => s.section === section) as {
    section: string;
    created: number;
    updated: number;
    skipped: number;
    unusableMetricNames: string[];
    onlyInTarget: string[];
    items: {
      key: string;
      sourceId: string | null;
      action: string;
      reason: string | null;
      changes: { field: string; current: unknown; incoming: unknown; isDifferent: boolean }[];
    }[];
  };

export const itemOf = (result: { sections: { section: string }[] }, section: string, key: string) =>
  sectionOf(result, section).items.find((i) => i.key === key)!;

/** Every table that holds catalog records (what an import writes). */
export const catalogTables = [
  "Tag",
  "TagAssignment",
  "Product",
  "ProductFeature",
  "FeatureCatalogEntry",
  "MonitoredAsset",
  "MeteredUsage",
  "BalanceUsage",
  "Suite",
  "SuiteMember",
  "UsagePlanSet",
  "UsagePlan",
  "UsagePlanLineItem",
  "UsagePlanFeatureValue",
  "AddOn",
  "AddOnFeatureValue",
  "AddOnGrant",
  "AttributionTouch",
  "RatingCampaign",
  "RatingCampaignTarget",
  "Offer",
] as const;

/** Row count and an md5 of every row's full text, per catalog table, for one tenant. */
export async function catalogChecksums(tenantId: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of catalogTables) {
    const [row] = await testDb().$queryRawUnsafe<{ n: bigint; sum: string }[]>(
      `SELECT count(*) AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum
       FROM "${table}" t WHERE t."tenantId" = $1::uuid`,
      tenantId,
    );
    out[table] = `${row.n}:${row.sum}`;
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every uuid string anywhere in a value. */
export function uuidsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "string" && UUID.test(value)) into.add(value);
  else if (Array.isArray(value)) value.forEach((v) => uuidsIn(v, into));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => uuidsIn(v, into));
  return into;
}

/**
 * A snapshot with every id replaced by its reference's kind and natural key, and without what
 * differs between tenants by nature (exportedAt, sourceTenantId): two exports of the same catalog
 * from two tenants are equal in this form.
 */
export function withoutIds(snapshot: {
  references: Record<string, { kind: string; naturalKey: unknown }>;
  [key: string]: unknown;
}) {
  const label = (id: string) => {
    const r = snapshot.references[id];
    return r ? `${r.kind}:${JSON.stringify(r.naturalKey)}` : `unreferenced:${id}`;
  };
  const walk = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(walk)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
        : typeof v === "string" && UUID.test(v)
          ? label(v)
          : v;
  const { exportedAt: _at, sourceTenantId: _tenant, references, ...rest } = snapshot;
  return {
    ...(walk(rest) as object),
    references: Object.fromEntries(
      Object.entries(references)
        .map(([id, r]) => [label(id), walk(r)] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  };
}
