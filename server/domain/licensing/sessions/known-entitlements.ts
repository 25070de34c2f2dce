import type { Entitlement } from "../../../db/generated/client.ts";
import type { TClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";

/** An entitlement as a session call read it, with the row version (xmin) it was read at. */
export type KnownEntitlement = { version: string; entitlement: Entitlement; claims: TClaimBasedActivation };

/**
 * Entitlements of this process's recent session calls, by tenant and id: versioned data (docs/architecture.md
 * section 11, "Nothing recomputed"). Only contactWithoutLock reads them, and its statement changes
 * nothing unless the entitlement row is still at the version read, so a stale entry costs one
 * call the locking path and never a wrong judgement.
 */
const knownEntitlements = new Map<string, KnownEntitlement>();
/** At most this many entitlements are held; the oldest entry makes room. */
const MAX_KNOWN_ENTITLEMENTS = 10_000;

export function rememberEntitlement(tenantId: string, known: KnownEntitlement): void {
  const key = `${tenantId}:${known.entitlement.id}`;
  knownEntitlements.delete(key);
  knownEntitlements.set(key, known);
  if (knownEntitlements.size > MAX_KNOWN_ENTITLEMENTS)
    knownEntitlements.delete(knownEntitlements.keys().next().value as string);
}

/** The entitlement as this process last read it for a session call, if it still holds it. */
export const knownEntitlement = (tenantId: string, entitlementId: string): KnownEntitlement | undefined =>
  knownEntitlements.get(`${tenantId}:${entitlementId}`);

/** `to_jsonb` gives timestamps as strings; the rest of the row is already in Prisma's shapes. */
export function reviveEntitlement(json: Record<string, unknown>): Entitlement {
  const dates = [
    "notValidBeforeDateTime",
    "expirationDateTime",
    "anonymousTryIssuedAt",
    "anonymousTryPurgeDueAt",
    "createdAt",
    "updatedAt",
  ] as const;
  const out: Record<string, unknown> = { ...json };
  for (const key of dates) out[key] = json[key] == null ? null : new Date(json[key] as string);
  return out as Entitlement;
}
