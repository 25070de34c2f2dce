// The reference client's usage commands: record usage locally, upload it (retrying, dropping what
// the server acknowledged), ask for consumption decisions and show a metric's usage.
import { ClientError, EXIT } from "./errors.ts";
import { callJson, callRaw } from "./http.ts";
import { readState } from "./state.ts";
import {
  nextTransactionId,
  readUsageStore,
  usageStoreFile,
  writeUsageStore,
  type UsageRecord,
} from "./usage-store.ts";

const USAGE = "/api/v1/provision/usage";

type UploadAnswer = {
  entitlementResolved: boolean;
  acknowledgedTransactionId: number | string | null;
  received: number;
  counted: number;
  duplicates: number;
  unmatched: number;
  tooOld: number;
  beyondBackDatingTolerance: number;
};

/** `usage record`: one usage transaction record in the local store (nothing is sent). */
export async function recordUsage(options: {
  stateFile: string;
  metric: string;
  amount?: string;
  eventName?: string;
}) {
  const state = await readState(options.stateFile);
  const amount = options.amount === undefined ? 1 : Number(options.amount);
  if (!Number.isFinite(amount) || amount < 0)
    throw new ClientError(EXIT.usage, `--amount must be a number ≥ 0, got ${options.amount}.`);
  const file = usageStoreFile(options.stateFile);
  const store = await readUsageStore(file);
  const record: UsageRecord = {
    transactionId: nextTransactionId(store),
    sessionId: state.sessionId,
    apiVersion: 1,
    creationDateTime: new Date().toISOString(),
    eventName: options.eventName ?? "UsageEvent",
    eventData: JSON.stringify({ metricName: options.metric, amount }),
  };
  await writeUsageStore(file, {
    ...store,
    lastTransactionId: record.transactionId,
    pending: [...store.pending, record],
  });
  return { recorded: record, pending: store.pending.length + 1 };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `usage upload`: sends the pending records in batches under the current session and drops those
 * up to the acknowledged transactionId. A busy or unreachable server is retried with backoff
 * (Retry-After when it gives one); a session that no longer exists keeps the records for the next
 * session (the server counts a record once per license whatever session carries it).
 */
export async function uploadUsage(options: { stateFile: string; batchSize?: number; retries?: number }) {
  const state = await readState(options.stateFile);
  const file = usageStoreFile(options.stateFile);
  const batchSize = Math.min(Math.max(options.batchSize ?? 100, 1), 1000);
  const retries = options.retries ?? 3;
  const totals = {
    batches: 0,
    uploaded: 0,
    counted: 0,
    duplicates: 0,
    unmatched: 0,
    tooOld: 0,
    beyondBackDatingTolerance: 0,
  };
  for (;;) {
    const store = await readUsageStore(file);
    const batch = store.pending.slice(0, batchSize);
    if (!batch.length)
      return { ...totals, acknowledgedTransactionId: store.acknowledgedTransactionId, pending: 0 };
    let answer: UploadAnswer | undefined;
    for (let attempt = 0; !answer; attempt++) {
      const res = await callRaw(
        state.url,
        "POST",
        `${USAGE}/sessions/${encodeURIComponent(state.sessionId)}/transactions`,
        {
          token: state.token,
          body: batch,
        },
      ).catch((error: unknown) => {
        if (error instanceof ClientError && error.exitCode === EXIT.unreachable && attempt < retries)
          return null;
        throw error;
      });
      if (res?.status === 200) answer = res.body as UploadAnswer;
      else if (res && res.status !== 503 && res.status < 500) throw res.fail();
      else if (attempt >= retries) throw res!.fail();
      else await pause(1000 * Math.max(Number(res?.headers.get("retry-after") ?? 0), 2 ** attempt / 2));
    }
    if (!answer.entitlementResolved)
      throw new ClientError(
        EXIT.noActiveSession,
        `The session is no longer active; ${store.pending.length} record(s) stay in ${file}: activate again, then upload.`,
      );
    const acknowledged = Number(answer.acknowledgedTransactionId);
    await writeUsageStore(file, {
      ...store,
      acknowledgedTransactionId: Math.max(store.acknowledgedTransactionId, acknowledged),
      pending: store.pending.filter((r) => r.transactionId > acknowledged),
    });
    totals.batches += 1;
    totals.uploaded += batch.length;
    for (const k of ["counted", "duplicates", "unmatched", "tooOld", "beyondBackDatingTolerance"] as const)
      totals[k] += answer[k];
  }
}

/** `consume` (or `consume --preview`): the server's consumption decision for the metric. */
export async function consumeUsage(options: {
  stateFile: string;
  metric: string;
  amount: string;
  idempotencyKey?: string;
  preview?: boolean;
}) {
  const state = await readState(options.stateFile);
  const query = new URLSearchParams({ amount: options.amount });
  if (options.idempotencyKey && !options.preview) query.set("idempotencyKey", options.idempotencyKey);
  const path = `${USAGE}/${options.preview ? "preview-consume" : "consume"}/${encodeURIComponent(state.sessionId)}/${encodeURIComponent(options.metric)}?${query}`;
  const decision = await callJson<{ allowed: boolean; reasonCode: string }>(state.url, "POST", path, {
    token: state.token,
  });
  if (!decision.allowed)
    throw new ClientError(EXIT.denied, `Consumption refused: ${decision.reasonCode}`, { decision });
  return decision;
}

/** `usage show`: the metric's usage snapshot and what remains of it (and the records not yet uploaded). */
export async function showUsage(options: { stateFile: string; metric: string }) {
  const state = await readState(options.stateFile);
  const base = `${USAGE}/${encodeURIComponent(state.sessionId)}/${encodeURIComponent(options.metric)}`;
  const [usage, consumption] = await Promise.all([
    callJson(state.url, "GET", `${base}/usage`, { token: state.token }),
    callJson(state.url, "GET", `${base}/consumption`, { token: state.token }),
  ]);
  const store = await readUsageStore(usageStoreFile(options.stateFile));
  const pending = store.pending.filter((r) => {
    try {
      return (JSON.parse(r.eventData) as { metricName?: string }).metricName === options.metric;
    } catch {
      return false;
    }
  });
  if (usage === undefined) return { metric: options.metric, tracked: false, pendingRecords: pending.length };
  return { metric: options.metric, tracked: true, usage, consumption, pendingRecords: pending.length };
}
