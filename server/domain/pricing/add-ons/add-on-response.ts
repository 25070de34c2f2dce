import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { Prisma } from "../../../db/generated/client.ts";
import { featuresByIds, liveFeaturesByCode } from "../../catalog/pricing-lookups.ts";
import type { TAddOnResponse } from "./add-on.schemas.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";

export const addOnInclude = {
  suite: { select: { name: true } },
  featureValues: { orderBy: [{ sortOrder: "asc" as const }, { id: "asc" as const }] },
} satisfies Prisma.AddOnInclude;

type AddOnRow = Prisma.AddOnGetPayload<{ include: typeof addOnInclude }>;

/**
 * docs/api.md add-on `referencedBy`: the entitlements and the offers that carry a grant of the add-on,
 * revoked and expired grants included. One query on grants.
 */
export async function addOnReferencedBy(db: TenantDbOrTx, tenantId: string, addOnId: string) {
  const [row] = await db.$queryRaw<{ entitlements: number; offers: number }[]>(Prisma.sql`
    SELECT COUNT(DISTINCT "entitlementId")::int AS entitlements, COUNT(DISTINCT "offerId")::int AS offers
    FROM "AddOnGrant" WHERE "tenantId" = ${tenantId}::uuid AND "addOnId" = ${addOnId}::uuid`);
  return { entitlements: row.entitlements, offers: row.offers };
}

/** Responses for add-on rows; `referencedBy` only where the caller computed it (null in lists). */
export async function toAddOnResponses(
  db: TenantDbOrTx,
  rows: readonly AddOnRow[],
  referencedBy: Map<string, { entitlements: number; offers: number }> = new Map(),
): Promise<TAddOnResponse[]> {
  const [entries, byCode] = await Promise.all([
    featuresByIds(
      db,
      rows.flatMap((r) => r.featureCatalogIds),
    ),
    liveFeaturesByCode(
      db,
      rows.flatMap((r) => r.featureValues.map((v) => v.featureCode)),
    ),
  ]);
  return rows.map((row) => ({
    id: row.id,
    suiteId: row.suiteId,
    suiteName: row.suite.name,
    code: row.code,
    name: row.name,
    description: row.description,
    status: row.status as TAddOnResponse["status"],
    features: row.featureCatalogIds.map((id) => {
      const entry = entries.get(id);
      return {
        featureCatalogId: id,
        featureCode: entry?.featureCode ?? null,
        name: entry?.name ?? null,
        featureType: entry?.featureType ?? null,
        units: entry?.units ?? null,
        isDeleted: entry ? entry.isDeleted : true,
      };
    }),
    featureValues: row.featureValues.map((v) => {
      const entry = byCode.get(v.featureCode);
      return {
        featureCode: v.featureCode,
        featureName: entry?.name ?? null,
        units: entry?.units ?? null,
        value: v.value,
        usageTiers: (Array.isArray(v.usageTiers) ? v.usageTiers : []) as unknown as TUsageTier[],
        planTargets: v.planTargets,
        operation: v.operation,
      };
    }),
    referencedBy: referencedBy.get(row.id) ?? null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

/** One add-on with its `referencedBy` computed. */
export async function readAddOn(
  db: TenantDbOrTx,
  tenantId: string,
  id: string,
): Promise<TAddOnResponse | null> {
  const row = await db.addOn.findUnique({ where: { id }, include: addOnInclude });
  if (!row) return null;
  const refs = await addOnReferencedBy(db, tenantId, id);
  return (await toAddOnResponses(db, [row], new Map([[id, refs]])))[0];
}
