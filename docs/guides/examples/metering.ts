// Metering from an application: ask before a metered action, record usage locally and upload it in
// batches, read what remains. docs/guides/metering-from-an-application.md explains each step; tests
// run this file against a real server (tests/int/guides/guides.int.test.ts).

// #region setup
const USAGE = "/api/v1/provision/usage";

type Session = { sessionId: string; token: string };

export type ConsumptionDecision = {
  allowed: boolean;
  reasonCode: string;
  committed: boolean;
  idempotentReplay: boolean;
  usage: number;
  remaining: number | null;
};

async function post<T>(url: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

// #endregion
// #region consume
// 1. Before a metered action (an export, a render, an API call to the vendor's cloud), ask for the
//    binding decision. The idempotencyKey makes a retry after a timeout answer the first decision
//    instead of charging twice: derive it from the action, not from the attempt.
export async function consumeBeforeAction(
  baseUrl: string,
  session: Session,
  metric: string,
  amount: number,
  actionId: string,
): Promise<ConsumptionDecision> {
  const query = new URLSearchParams({ amount: String(amount), idempotencyKey: actionId });
  const res = await post<ConsumptionDecision>(
    `${baseUrl}${USAGE}/consume/${session.sessionId}/${encodeURIComponent(metric)}?${query}`,
    session.token,
  );
  if (res.status !== 200) throw new Error(`consume answered ${res.status}`);
  // allowed false: QuotaExceeded, CriticalBalance, InsufficientCredits, MeterSuspended, ... The
  // action must not run; tell the user what remains and how to get more.
  return res.body;
}

// A preview answers the same decision without recording anything: use it to grey out a button.
export async function previewConsume(baseUrl: string, session: Session, metric: string, amount: number) {
  const res = await post<ConsumptionDecision>(
    `${baseUrl}${USAGE}/preview-consume/${session.sessionId}/${encodeURIComponent(metric)}?amount=${amount}`,
    session.token,
  );
  return res.body;
}

// #endregion
// #region upload
// 2. Usage that needs no decision (pages printed, minutes used) is recorded locally with an
//    increasing transactionId and uploaded in batches. A batch may be sent again, under this or
//    another session of the same license: records already uploaded are acknowledged and not counted
//    twice, so a client retries a failed upload with the same records.
export type UsageRecord = {
  transactionId: number;
  sessionId: string;
  apiVersion: 1;
  creationDateTime: string;
  eventName: string;
  eventData: string;
};

export function usageRecord(
  sessionId: string,
  transactionId: number,
  metric: string,
  amount: number,
): UsageRecord {
  return {
    transactionId,
    sessionId,
    apiVersion: 1,
    creationDateTime: new Date().toISOString(),
    eventName: metric,
    eventData: JSON.stringify({ metricName: metric, amount }),
  };
}

export async function uploadUsage(
  baseUrl: string,
  session: Session,
  records: UsageRecord[],
  batchSize = 100,
) {
  let counted = 0;
  let duplicates = 0;
  for (let i = 0; i < records.length; i += batchSize) {
    const batch = records.slice(i, i + batchSize);
    const res = await post<{
      entitlementResolved: boolean;
      acknowledgedTransactionId: number | string | null;
      counted: number;
      duplicates: number;
    }>(`${baseUrl}${USAGE}/sessions/${session.sessionId}/transactions`, session.token, batch);
    if (res.status === 429 || res.status === 503) return { counted, duplicates, retryLater: true };
    if (res.status !== 200) throw new Error(`upload answered ${res.status}`);
    // The session has ended (released or reset): keep the records and upload them after activating again.
    if (!res.body.entitlementResolved) return { counted, duplicates, retryLater: true };
    counted += res.body.counted;
    duplicates += res.body.duplicates;
    // Records up to acknowledgedTransactionId may now be dropped from the local store.
  }
  return { counted, duplicates, retryLater: false };
}

// #endregion
// #region remaining
// 3. What remains of the allowance (and of any credit balance that funds overage); 204 means the
//    license does not track this metric.
export async function remainingAllowance(baseUrl: string, session: Session, metric: string) {
  const res = await fetch(
    `${baseUrl}${USAGE}/${session.sessionId}/${encodeURIComponent(metric)}/consumption`,
    {
      headers: { authorization: `Bearer ${session.token}` },
    },
  );
  if (res.status === 204) return null;
  const body = (await res.json()) as { usage: number; limit: number | null; remaining: number | null };
  return { usage: body.usage, limit: body.limit, remaining: body.remaining };
}
// #endregion
