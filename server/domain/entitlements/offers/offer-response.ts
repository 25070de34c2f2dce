import { templateCopy } from "./template-copy.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Offer } from "../../../db/generated/client.ts";
import { productsByIds } from "../../catalog/pricing-lookups.ts";
import { readRecordTags } from "../../catalog/tags/record-tags.ts";
import { ZOfferResponse, type TOfferResponse } from "./offer.schemas.ts";
import { iso } from "../../../core/iso-date.ts";

const obj = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export async function toOfferResponses(db: TenantDbOrTx, rows: readonly Offer[]): Promise<TOfferResponse[]> {
  const [products, tags] = await Promise.all([
    productsByIds(
      db,
      rows.flatMap((r) => r.productIds),
    ),
    readRecordTags(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((row) =>
    ZOfferResponse.parse({
      id: row.id,
      isOffer: true,
      status: row.status,
      version: row.version,
      ...templateCopy.responseValues(row),
      validityDays: row.validityDays,
      products: row.productIds.map((id) => {
        const p = products.get(id);
        return {
          id,
          productCode: p?.productCode ?? null,
          productVersion: p?.productVersion ?? null,
          name: p?.name ?? null,
        };
      }),
      billingTemplate: row.billingTemplate ? obj(row.billingTemplate) : null,
      tags: tags.get(row.id) ?? [],
      publishedAt: iso(row.publishedAt),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      revisionNumber: row.revisionNumber,
    }),
  );
}

export async function readOffer(db: TenantDbOrTx, id: string): Promise<TOfferResponse | null> {
  const row = await db.offer.findUnique({ where: { id } });
  return row ? (await toOfferResponses(db, [row]))[0] : null;
}
