import pg from "pg";
import { sqlOnPool } from "../db/sql.ts";
import type { Db } from "../db/client.ts";
import { now } from "../clock.ts";
import { systemContext, type DomainContext } from "../domain/context.ts";
import {
  attemptDelivery,
  claimDueDeliveries,
  dispatchEnvelopes,
  DISPATCH_BATCH_SIZE,
  nextAttemptAfter,
  recordAttempt,
  recordSucceededAttempts,
  type AttemptResult,
  type ClaimedDelivery,
} from "../domain/cross-tenant.ts";
import { dispatchPollMs, workerDeliverySlots } from "../domain/webhooks/delivery/settings.ts";
import type { Logger } from "../log.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";

/** Held (session lock) by a dispatcher while it sleeps; the outbox trigger notifies only then (migration 20261122100000). */
const WATCH_LOCK = 7170001;
const CHANNEL = "webhook_outbox";
/** Results recorded per statement. */
const RECORD_BATCH = 200;

export type WebhookDispatcherOptions = {
  /** The process Prisma client (fan-out, failed attempts, the platform key of callback tokens). */
  base: Db;
  /** The pool claims and recorded successes use (named prepared statements). */
  pool: pg.Pool;
  /** For the LISTEN connection, which lives outside the pool. */
  connectionString: string;
  log: Pick<Logger, "debug" | "info" | "warn" | "error">;
  pollMs?: number;
  slots?: number;
};

export type WebhookDispatcher = { stop(): Promise<void> };

/** A sleep that a kick ends early; a kick while nobody sleeps makes the next sleep return at once. */
class Waker {
  private wake: (() => void) | undefined;
  private kicked = false;
  kick() {
    if (this.wake) this.wake();
    else this.kicked = true;
  }
  /** Resolves true when kicked, false when the time ran out. */
  sleep(ms: number): Promise<boolean> {
    if (this.kicked) {
      this.kicked = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve(false);
      }, ms);
      this.wake = () => {
        this.wake = undefined;
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

/**
 * The worker's webhook engine (docs/architecture.md section 7), beside graphile-worker's jobs: a dispatcher
 * that drains envelopes not fanned out, and a delivery pump that claims due deliveries in batches
 * (within the per-tenant and per-subscription caps), sends them concurrently over keep-alive
 * connections and records the results in batches. Both wake on a short poll, on the outbox
 * trigger's notify (only while a dispatcher sleeps), and the pump also on its own fan-outs,
 * recorded results and retry times. Every worker process runs one; they share the work through
 * `SKIP LOCKED` and the claim lock.
 */
export async function startWebhookDispatcher(options: WebhookDispatcherOptions): Promise<WebhookDispatcher> {
  const { base, pool, log } = options;
  // While PostgreSQL is away every loop fails on each poll: expected, retried, and a warning; an
  // error is kept for what a retry will not fix.
  const failed = (fields: { err: unknown; deliveryId?: string }, message: string) =>
    isDatabaseUnavailable(fields.err) ? log.warn(fields, message) : log.error(fields, message);
  const pollMs = options.pollMs ?? dispatchPollMs();
  const slots = options.slots ?? workerDeliverySlots();
  const fanOutWaker = new Waker();
  const pumpWaker = new Waker();
  let stopped = false;

  /**
   * New work may be due (a fan-out, a notification, a retry time): claim at the next turn. Declared
   * before the LISTEN connection: a notification can arrive while it is being set up.
   */
  let claimWanted = true;
  const wantClaim = () => {
    claimWanted = true;
    pumpWaker.kick();
  };

  // --- The LISTEN connection, which also holds the watch lock while the dispatcher sleeps.
  let listener: pg.Client | null = null;
  let watching = false;
  const connectListener = async () => {
    const client = new pg.Client({ connectionString: options.connectionString });
    client.on("error", (error) => {
      if (!stopped) log.warn({ err: error }, "webhook dispatcher: notification connection lost");
      if (listener === client) {
        listener = null;
        watching = false;
      }
    });
    client.on("notification", () => {
      fanOutWaker.kick();
      wantClaim();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  };
  const tryWatch = async (): Promise<boolean> => {
    try {
      if (!listener) await connectListener();
      const { rows } = await listener!.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [
        WATCH_LOCK,
      ]);
      watching = rows[0].ok;
    } catch (error) {
      log.warn({ err: error }, "webhook dispatcher: cannot watch for new events; polling");
      watching = false;
    }
    return watching;
  };
  const unwatch = async () => {
    if (!watching || !listener) return;
    watching = false;
    await listener.query("SELECT pg_advisory_unlock($1)", [WATCH_LOCK]).catch(() => undefined);
  };
  await connectListener();

  // --- Fan-out: drain, and when nothing is left, watch (then look once more, for the race) and sleep.
  const fanOutLoop = async () => {
    while (!stopped) {
      let envelopes = 0;
      try {
        const result = await dispatchEnvelopes(base, { batchSize: DISPATCH_BATCH_SIZE });
        envelopes = result.envelopes;
        if (result.deliveries > 0) wantClaim();
        if (envelopes > 0) log.debug({ ...result }, "webhook fan-out");
      } catch (error) {
        failed({ err: error }, "webhook fan-out failed");
        await fanOutWaker.sleep(pollMs);
        continue;
      }
      if (envelopes > 0) {
        await unwatch();
        continue;
      }
      if (!watching && (await tryWatch())) continue;
      await fanOutWaker.sleep(pollMs);
    }
  };

  // --- Delivery pump.
  // One context per tenant (a tenant-scoped client is costly to build per delivery).
  const contexts = new Map<string, DomainContext>();
  const contextOf = (tenantId: string) => {
    let ctx = contexts.get(tenantId);
    if (!ctx) {
      if (contexts.size >= 1000) contexts.clear();
      ctx = systemContext(base, tenantId, "webhook-pump");
      contexts.set(tenantId, ctx);
    }
    return ctx;
  };
  let inFlight = 0;
  /** Results recorded since the last claim, and how many were in flight after it. */
  let recordedSinceClaim = 0;
  let inFlightAfterClaim = 0;
  const finished: AttemptResult[] = [];
  let recording = false;
  let idle: (() => void) | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAt = Number.POSITIVE_INFINITY;
  const wakeAt = (at: Date) => {
    const time = at.getTime();
    if (time >= retryAt) return;
    clearTimeout(retryTimer);
    retryAt = time;
    retryTimer = setTimeout(
      () => {
        retryAt = Number.POSITIVE_INFINITY;
        wantClaim();
      },
      Math.max(0, time - now().getTime()),
    );
  };

  const record = async () => {
    if (recording) return;
    recording = true;
    try {
      while (finished.length) {
        const batch = finished.splice(0, RECORD_BATCH);
        try {
          await recordSucceededAttempts(
            sqlOnPool(pool),
            batch.filter((a) => a.result.ok),
          );
        } catch (error) {
          // Their rows stay `sending`; the sweeper takes them back after the lease (at-least-once).
          failed({ err: error }, "webhook deliveries: recording successes failed");
        }
        for (const attempt of batch.filter((a) => !a.result.ok)) {
          try {
            if ((await recordAttempt(contextOf(attempt.delivery.tenantId), attempt)) === "retrying") {
              const next = nextAttemptAfter(attempt);
              if (next) wakeAt(next);
            }
          } catch (error) {
            failed({ err: error, deliveryId: attempt.delivery.id }, "webhook delivery: recording failed");
          }
        }
        inFlight -= batch.length;
        recordedSinceClaim += batch.length;
        pumpWaker.kick();
      }
    } finally {
      recording = false;
      if (inFlight === 0) idle?.();
    }
  };

  const send = async (delivery: ClaimedDelivery) => {
    let attempt: AttemptResult;
    try {
      attempt = await attemptDelivery(contextOf(delivery.tenantId), delivery, { base });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      attempt = {
        delivery,
        headers: {},
        result: { ok: false, status: null, headers: {}, body: "", error: `Error: ${message}`, durationMs: 0 },
        finishedAt: now(),
      };
    }
    finished.push(attempt);
    void record();
  };

  const pumpLoop = async () => {
    while (!stopped) {
      const free = slots - inFlight;
      // While attempts are under way, claim again once a quarter of them (at most 16) are recorded,
      // not after every result: a claim is a serialised statement, and slots free up in batches.
      const enough =
        inFlight === 0 ||
        claimWanted ||
        recordedSinceClaim >= Math.min(16, Math.max(1, inFlightAfterClaim >> 2));
      if (free > 0 && enough) {
        try {
          recordedSinceClaim = 0;
          claimWanted = false;
          const claimed = await claimDueDeliveries(sqlOnPool(pool), { limit: free });
          inFlight += claimed.length;
          inFlightAfterClaim = inFlight;
          for (const delivery of claimed) void send(delivery);
          if (claimed.length > 0)
            log.debug({ claimed: claimed.length, inFlight }, "webhook deliveries claimed");
        } catch (error) {
          failed({ err: error }, "webhook deliveries: claim failed");
        }
      }
      // A poll that nothing cut short claims anyway: work may have come due meanwhile.
      if (!(await pumpWaker.sleep(pollMs))) claimWanted = true;
    }
  };

  const loops = Promise.all([fanOutLoop(), pumpLoop()]);
  log.info({ pollMs, slots }, "webhook dispatcher started");

  return {
    async stop() {
      stopped = true;
      fanOutWaker.kick();
      pumpWaker.kick();
      await loops;
      clearTimeout(retryTimer);
      // Attempts under way finish (each within its timeout) and are recorded.
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      await unwatch();
      await listener?.end().catch(() => undefined);
    },
  };
}
