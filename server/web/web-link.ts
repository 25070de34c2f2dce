import type { ChildProcess } from "node:child_process";

/**
 * The link between the web process (server/web/main.ts, the runtime lane) and its Next.js child
 * (server/web/next-process.ts), over the child's IPC channel. The web process keeps the one set of
 * in-process counters (GET /api/metrics, the refusal counts): the child reports each request it
 * answers there, and asks it to flush refusals before the dashboard reads them.
 */

/** A route observation as it crosses the channel: the activation code the only part of the body kept. */
export type LinkedObservation = {
  path: string;
  method: string;
  status: number;
  seconds: number;
  codeName?: string;
  tenantId?: string;
  activationCode?: string;
  at: string;
};

type ToWeb =
  | { kind: "ready" }
  | { kind: "observe"; observation: LinkedObservation }
  | { kind: "flushRefusals"; id: number };
type ToNext = { kind: "flushedRefusals"; id: number };

/**
 * Sends to the web process. It can die between any check and the write: the child's disconnect
 * handler stops it then, so a failed send is dropped here rather than thrown (an EPIPE was an
 * uncaught exception in a child whose parent was killed while it started).
 */
function toWeb(message: ToWeb): void {
  if (!process.connected) return;
  process.send!(message, undefined, undefined, () => {});
}

/** The child serves: the web process may start listening. */
export function reportReady(): void {
  toWeb({ kind: "ready" });
}

/** Resolves once the child reports it serves. */
export function nextReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: ToWeb) => {
      if (message?.kind !== "ready") return;
      child.off("message", onMessage);
      resolve();
    };
    child.on("message", onMessage);
  });
}

export function reportToWeb(observation: LinkedObservation): void {
  toWeb({ kind: "observe", observation });
}

let nextFlush = 0;
/** Resolves once the web process has written the refusals it counted. */
export function flushRefusalsInWeb(): Promise<void> {
  const id = ++nextFlush;
  return new Promise((resolve) => {
    const onMessage = (message: ToNext) => {
      if (message?.kind !== "flushedRefusals" || message.id !== id) return;
      process.off("message", onMessage);
      resolve();
    };
    process.on("message", onMessage);
    toWeb({ kind: "flushRefusals", id });
  });
}

/** The web process's side: what the child reports is counted here. */
export function serveLink(
  child: ChildProcess,
  handlers: { observe: (o: LinkedObservation) => void; flushRefusals: () => Promise<void> },
): void {
  child.on("message", (message: ToWeb) => {
    if (message?.kind === "observe") handlers.observe(message.observation);
    else if (message?.kind === "flushRefusals")
      void handlers.flushRefusals().finally(() => {
        if (child.connected) child.send({ kind: "flushedRefusals", id: message.id } satisfies ToNext);
      });
  });
}
