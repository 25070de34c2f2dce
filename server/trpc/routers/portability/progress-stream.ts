import { AppError } from "../../../core/errors.ts";
import { toProblem, type Problem } from "../../../http/problem.ts";

export type StreamEvent<P, R> =
  { type: "progress"; progress: P } | { type: "result"; result: R } | { type: "problem"; problem: Problem };

/**
 * Turns a long domain call that reports progress into a stream for a tRPC procedure
 * (httpBatchStreamLink): progress events at most every `everyMs` (and on a change of `phase`),
 * then the result, or the domain's refusal as a problem event (the stream has started, so it
 * cannot become an error response any more).
 */
export async function* withProgress<P, R>(
  run: (onProgress: (progress: P) => void) => Promise<R>,
  options: { instance: string; phase?: (progress: P) => string; everyMs?: number },
): AsyncGenerator<StreamEvent<P, R>> {
  const pending: P[] = [];
  let wake: (() => void) | null = null;
  let lastAt = 0;
  let lastPhase: string | undefined;
  const onProgress = (progress: P) => {
    const phase = options.phase?.(progress);
    const now = Date.now();
    if (phase === lastPhase && now - lastAt < (options.everyMs ?? 200)) return;
    lastAt = now;
    lastPhase = phase;
    pending.splice(0, pending.length, progress);
    wake?.();
  };
  let outcome: { ok: true; value: R } | { ok: false; error: unknown } | null = null;
  const finished = run(onProgress).then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  void finished.then(() => wake?.());
  while (!outcome) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (pending.length || outcome) resolve();
    });
    wake = null;
    const next = pending.shift();
    if (next !== undefined && !outcome) yield { type: "progress", progress: next };
  }
  const done = outcome as { ok: true; value: R } | { ok: false; error: unknown };
  if (done.ok) yield { type: "result", result: done.value };
  else if (done.error instanceof AppError)
    yield { type: "problem", problem: toProblem(done.error, options.instance) };
  else throw done.error;
}
