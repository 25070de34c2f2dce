import type { Db } from "../../db/client.ts";
import { findActivationCodeByInput } from "../licensing/activation-codes/find-activation-code.ts";
import { logger } from "../../log.ts";

/**
 * Refusals of runtime calls per tenant, day and code (docs/decisions.md "Operations"):
 * counted in memory by the web process and added to `RefusalCount` by one flush every few
 * seconds, so a refusal costs no database write on its request. An anonymous activation names
 * its tenant only through its code: the flush looks the code up (one indexed read per distinct
 * code refused in the window), and a code that names no license counts for no tenant.
 */
export type RefusalOperation = "activation" | "session" | "usage";

type Pending = {
  /** `tenantId|operation|codeName|day` → count, for refusals whose tenant is known. */
  known: Map<string, number>;
  /** activation code as typed → `operation|codeName|day` → count, resolved at flush time. */
  byCode: Map<string, Map<string, number>>;
  timer: ReturnType<typeof setTimeout> | null;
  flushing: Promise<void> | null;
  /** The database the flush writes to (the web process's client), set by setRefusalDb. */
  dbOf: (() => Db) | null;
};

const FLUSH_AFTER_MS = 5_000;
/** Distinct codes remembered per window: a flood of random codes cannot grow memory unbounded. */
const MAX_CODES = 1_000;

const globalPending = globalThis as unknown as { __licensingRefusals?: Pending };
function pending(): Pending {
  globalPending.__licensingRefusals ??= {
    known: new Map(),
    byCode: new Map(),
    timer: null,
    flushing: null,
    dbOf: null,
  };
  return globalPending.__licensingRefusals;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

// On globalThis: the process that sets it and the route bundles Next.js loads are two module graphs.
const DELEGATE = Symbol.for("licensing.flushRefusalsElsewhere");
const delegated = globalThis as unknown as { [DELEGATE]?: () => Promise<void> };

/**
 * Makes flushRefusals ask another process to flush: the Next.js child of the web process counts
 * nothing itself (server/web/next-process.ts hands the request to its parent).
 */
export function delegateRefusalFlush(to: () => Promise<void>): void {
  delegated[DELEGATE] = to;
}

/** Which database the background flush writes to (the web process's client). */
export function setRefusalDb(dbOf: () => Db) {
  pending().dbOf = dbOf;
}

/** Counts one refusal; `tenantId` when the caller is known, else the activation code it sent. */
export function countRefusal(input: {
  operation: RefusalOperation;
  codeName: string;
  at: Date;
  tenantId?: string;
  activationCode?: string;
}) {
  const p = pending();
  const key = `${input.operation}|${input.codeName}|${dayOf(input.at)}`;
  if (input.tenantId) {
    const full = `${input.tenantId}|${key}`;
    p.known.set(full, (p.known.get(full) ?? 0) + 1);
  } else if (input.activationCode && input.activationCode.length <= 200) {
    let counts = p.byCode.get(input.activationCode);
    if (!counts) {
      if (p.byCode.size >= MAX_CODES) return;
      counts = new Map();
      p.byCode.set(input.activationCode, counts);
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  } else return;
  if (!p.timer && p.dbOf) {
    p.timer = setTimeout(() => void flushRefusals().catch(() => undefined), FLUSH_AFTER_MS);
    p.timer.unref?.();
  }
}

/**
 * Writes what was counted since the last flush (the dashboard calls it before reading, so its
 * figures include the last seconds). One flush runs at a time; counts that fail to write are
 * logged and dropped (these are operator figures, not billing).
 */
export async function flushRefusals(): Promise<void> {
  // The Next.js child of the web process counts nothing itself: the web process does.
  const delegate = delegated[DELEGATE];
  if (delegate) return delegate();
  const p = pending();
  if (p.flushing) await p.flushing;
  if (!p.dbOf || (p.known.size === 0 && p.byCode.size === 0)) return;
  if (p.timer) clearTimeout(p.timer);
  p.timer = null;
  const known = p.known;
  const byCode = p.byCode;
  p.known = new Map();
  p.byCode = new Map();
  const base = p.dbOf();
  p.flushing = (async () => {
    try {
      for (const [code, counts] of byCode) {
        const row = await findActivationCodeByInput(base, code);
        if (!row) continue;
        for (const [key, n] of counts) {
          const full = `${row.tenantId}|${key}`;
          known.set(full, (known.get(full) ?? 0) + n);
        }
      }
      for (const [full, n] of known) {
        const [tenantId, operation, codeName, day] = full.split("|");
        await upsertCount(base, { tenantId, operation, codeName, day: new Date(`${day}T00:00:00Z`), n });
      }
    } catch (error) {
      logger.warn({ err: error }, "refusal counts not written");
    } finally {
      p.flushing = null;
    }
  })();
  await p.flushing;
}

/** Adds one counter (the primary key is tenant, day, operation and code: one row per bucket). */
async function upsertCount(
  base: Db,
  row: { tenantId: string; operation: string; codeName: string; day: Date; n: number },
) {
  const at = new Date();
  const id = { tenantId: row.tenantId, day: row.day, operation: row.operation, codeName: row.codeName };
  await base.refusalCount.upsert({
    where: { tenantId_day_operation_codeName: id },
    create: { ...id, count: row.n, updatedAt: at },
    update: { count: { increment: row.n }, updatedAt: at },
  });
}
