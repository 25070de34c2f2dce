import { templateCopy } from "../offers/template-copy.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Entitlement } from "../../../db/generated/client.ts";
import { productsByIds } from "../../catalog/pricing-lookups.ts";
import { ZEntitlementResponse, type TEntitlementResponse } from "./entitlement.schemas.ts";
import { iso } from "../../../core/iso-date.ts";
import { toPlanHistoryEntry } from "../plans/plan-history.ts";

const obj = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export async function toEntitlementResponses(
  db: TenantDbOrTx,
  rows: readonly Entitlement[],
  options: { withHistory?: boolean } = {},
): Promise<TEntitlementResponse[]> {
  const [products, history] = await Promise.all([
    productsByIds(
      db,
      rows.flatMap((r) => r.productIds),
    ),
    options.withHistory && rows.length
      ? db.entitlementPlanHistory.findMany({
          where: { entitlementId: { in: rows.map((r) => r.id) } },
          orderBy: [{ changedAt: "asc" }, { id: "asc" }],
        })
      : Promise.resolve([]),
  ]);
  return rows.map((row) =>
    ZEntitlementResponse.parse({
      id: row.id,
      isOffer: false,
      status: row.status,
      version: row.version,
      ...templateCopy.responseValues(row),
      reference: row.reference,
      externalReference: row.externalReference,
      isAnonymousTry: row.isAnonymousTry,
      convertedToEntitlementId: row.convertedToEntitlementId,
      anonymousTryIssuedAt: iso(row.anonymousTryIssuedAt),
      anonymousTryPurgeDueAt: iso(row.anonymousTryPurgeDueAt),
      sourceOfferId: row.sourceOfferId,
      originOfferId: row.originOfferId,
      customerId: row.customerId,
      customerKind: row.customerKind,
      activationsEnabled: row.activationsEnabled,
      transferCount: row.transferCount,
      products: row.productIds.map((id) => {
        const p = products.get(id);
        return {
          id,
          productCode: p?.productCode ?? null,
          productVersion: p?.productVersion ?? null,
          name: p?.name ?? null,
        };
      }),
      featureOverrides: obj(row.featureOverrides) as Record<string, string>,
      planHistory: history.filter((h) => h.entitlementId === row.id).map(toPlanHistoryEntry),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      revisionNumber: row.revisionNumber,
    }),
  );
}

export async function readEntitlement(db: TenantDbOrTx, id: string): Promise<TEntitlementResponse | null> {
  const row = await db.entitlement.findUnique({ where: { id } });
  return row ? (await toEntitlementResponses(db, [row], { withHistory: true }))[0] : null;
}
