import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { ClientError, EXIT } from "./errors.ts";

/** docs/api.md "Usage transaction record", as the local store keeps it until the server acknowledges it. */
export type UsageRecord = {
  transactionId: number;
  sessionId: string;
  apiVersion: number;
  creationDateTime: string;
  eventName: string;
  eventData: string;
};

/**
 * The local usage store (a JSON file beside the state file): records not yet acknowledged, and
 * the last transactionId assigned. Ids are monotonic per store and start from the clock in
 * microseconds with random low digits, so two devices of one license (whose ids the server
 * deduplicates per license) practically never pick the same id; they stay below 2^53.
 */
export type UsageStore = {
  lastTransactionId: number;
  acknowledgedTransactionId: number;
  pending: UsageRecord[];
};

export const usageStoreFile = (stateFile: string) => `${stateFile.replace(/\.json$/, "")}.usage.json`;

export async function readUsageStore(file: string): Promise<UsageStore> {
  if (!existsSync(file)) return { lastTransactionId: 0, acknowledgedTransactionId: 0, pending: [] };
  try {
    const store = JSON.parse(await readFile(file, "utf8")) as UsageStore;
    if (!Array.isArray(store.pending) || typeof store.lastTransactionId !== "number")
      throw new Error("missing fields");
    return store;
  } catch (error) {
    throw new ClientError(
      EXIT.internal,
      `The usage store ${file} is unreadable (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

/** Written to a temporary file and renamed, so a crash never loses or half-writes the store. */
export async function writeUsageStore(file: string, store: UsageStore): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}

/** The next transactionId: above every id this store assigned, normally the clock in µs plus noise. */
export function nextTransactionId(store: UsageStore, nowMs = Date.now()): number {
  const fromClock = nowMs * 1000 + Math.floor(Math.random() * 1000);
  return Math.max(store.lastTransactionId + 1, fromClock);
}
