/** Webhook settings read from the environment (each call reads it, so tests can set them per process). */

/**
 * docs/architecture.md section 7: tests only. Allows receivers on loopback, private and link-local addresses,
 * internal host names and plain http. Off unless exactly "1".
 */
export const allowPrivateReceiverUrls = (): boolean => process.env.WEBHOOKS_ALLOW_PRIVATE_URLS === "1";

/** Multiplies every retry delay (tests compress the schedule); 1 in production. */
export function retryScale(): number {
  const value = Number(process.env.WEBHOOKS_RETRY_SCALE ?? 1);
  return Number.isFinite(value) && value >= 0 ? value : 1;
}

/** docs/architecture.md section 7: 15 s per attempt. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** A claimed attempt that has not finished after this long is considered lost (its worker died). */
export const DELIVERY_LEASE_MS = 60_000;
/** docs/api.md: the response excerpt kept per attempt. */
export const RESPONSE_EXCERPT_BYTES = 2048;
/** How much of a challenge answer is read to check the echo and its signature. */
export const CHALLENGE_RESPONSE_BYTES = 64 * 1024;
/** docs/architecture.md section 5: callback token lifetime. */
export const CALLBACK_TOKEN_SECONDS = 300;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

export type DeliveryCaps = { perTenant: number; perSubscription: number };

/**
 * docs/security.md "Webhooks": attempts in flight at once across every worker, per tenant and per
 * subscription, so one tenant's slow receivers (15 s each) cannot take every slot.
 */
export const deliveryCaps = (): DeliveryCaps => ({
  perTenant: positiveInt("WEBHOOKS_TENANT_CONCURRENCY", 64),
  perSubscription: positiveInt("WEBHOOKS_SUBSCRIPTION_CONCURRENCY", 16),
});

/** Attempts one worker process has in flight at once. */
export const workerDeliverySlots = (): number => positiveInt("WEBHOOKS_WORKER_SLOTS", 256);

/**
 * docs/architecture.md section 7: how long an idle dispatcher or delivery pump sleeps before it looks again
 * when nothing woke it (at most 200 ms).
 */
export const dispatchPollMs = (): number => Math.min(positiveInt("WEBHOOKS_DISPATCH_POLL_MS", 200), 200);

/** docs/security.md "Webhooks": test-fires and verifications per subscription per minute. */
export const ON_DEMAND_SENDS_PER_MINUTE = 10;
