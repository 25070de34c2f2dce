import type { TenantDbOrTx } from "../../db/tenant-db.ts";

export type OfferSummary = { id: string; name: string; version: string | null };

/**
 * Offers by id, for records that name offers before offers exist as a model (rating campaigns).
 * Offers arrive with the entitlements work, which replaces this body with a query on its Offer
 * model; until then no offer exists, so every name reads null ("the offer no longer exists").
 * Callers rely only on this signature: an id missing from the map resolves to a null name.
 */
export async function offersByIds(_db: TenantDbOrTx, _ids: readonly string[]): Promise<Map<string, OfferSummary>> {
  return new Map();
}
