import type { Sql } from "../../../db/sql.ts";
import { now } from "../../../clock.ts";
import { DELIVERY_LEASE_MS, deliveryCaps, type DeliveryCaps } from "./settings.ts";

/** A delivery claimed for one attempt: the row is `sending` with a lease and its attempt row written. */
export type ClaimedDelivery = {
  id: string;
  tenantId: string;
  envelopeId: string;
  eventType: string;
  scheduleOffset: number;
  attemptNumber: number;
  payload: string;
  subscription: {
    id: string;
    tenantId: string;
    url: string;
    callbackScopes: string[];
    secretSealed: string | null;
    previousSecretSealed: string | null;
    previousSecretExpiresAt: Date | null;
  };
};

/**
 * `webhook_claim_due` (migration 20261122100000), one round trip: under a transaction-level
 * advisory lock, so claims are taken one at a time across workers and the in-flight counts they
 * read are exact (a VOLATILE SQL function takes a fresh snapshot per statement, so the claim sees
 * every claim committed before the lock was granted). It finds the tenants with pending rows by a
 * loose index scan over (status, tenantId, nextAttemptAt), so a tenant with a long backlog cannot
 * hide the others; takes each one's due deliveries up to its cap against what is in flight
 * (`sending` rows: docs/architecture.md section 12) per tenant and per subscription, round-robin across
 * tenants; dead-letters due deliveries whose subscription no longer takes them (requeueable once it
 * is Active again); and makes the claimed rows `sending` with a lease and their attempt row.
 */
const CLAIM_SQL = `SELECT * FROM webhook_claim_due($1, $2, $3, $4, $5)`;

type ClaimRow = Omit<ClaimedDelivery, "subscription"> & {
  subscriptionId: string;
  url: string;
  callbackScopes: string[];
  secretSealed: string | null;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
};

/**
 * The delivery pump's claim, over every tenant (a cross-tenant entry point): up to `limit` due
 * deliveries in one statement, within the per-tenant and per-subscription concurrency caps
 * (docs/security.md "Webhooks": one tenant cannot take every slot).
 */
export async function claimDueDeliveries(
  sql: Sql,
  options: { limit: number; at?: Date; caps?: DeliveryCaps },
): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return [];
  const at = options.at ?? now();
  const caps = options.caps ?? deliveryCaps();
  const rows = await sql.query<ClaimRow>({ name: "webhooks.claim-due", text: CLAIM_SQL }, [
    at,
    caps.perTenant,
    caps.perSubscription,
    options.limit,
    new Date(at.getTime() + DELIVERY_LEASE_MS),
  ]);
  return rows.map(
    ({
      subscriptionId,
      url,
      callbackScopes,
      secretSealed,
      previousSecretSealed,
      previousSecretExpiresAt,
      ...d
    }) => ({
      ...d,
      subscription: {
        id: subscriptionId,
        tenantId: d.tenantId,
        url,
        callbackScopes,
        secretSealed,
        previousSecretSealed,
        previousSecretExpiresAt,
      },
    }),
  );
}
