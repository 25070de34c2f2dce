import type { TenantDbOrTx } from "../../../db/tenant-db.ts";

export type OfferSummary = { id: string; name: string; version: string | null };

/**
 * Offers by id, for records that name offers (rating campaigns). An id missing from the map
 * resolves to a null name ("the offer no longer exists").
 */
export async function offersByIds(
  db: TenantDbOrTx,
  ids: readonly string[],
): Promise<Map<string, OfferSummary>> {
  if (!ids.length) return new Map();
  const rows = await db.offer.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, name: true, version: true },
  });
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, version: String(r.version) }]));
}
