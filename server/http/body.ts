import type { RouteRequest } from "./route-request.ts";
import { AppError, validationError } from "../core/errors.ts";
import type { Contract } from "./contract.ts";
import { problemResponse } from "./problem.ts";

/**
 * Byte caps on request bodies (docs/security.md "Request bodies"). A body is read from the
 * request's stream and reading stops at the cap, so an upload larger than the cap costs the
 * process at most the cap, whoever sends it and however many arrive at once.
 */
const KiB = 1024;
const MiB = 1024 * KiB;
export const BODY_LIMITS = {
  /** Anonymous calls (activation, the token endpoint, sign-in): the largest is an activation, ~25 KiB. */
  anonymous: 64 * KiB,
  /** Authenticated JSON API bodies. */
  json: 1 * MiB,
  /** Documented larger bodies (whole plan sets, offers with every feature); the UI's tRPC for signed-in users. */
  large: 8 * MiB,
} as const;

/** A route's cap: its contract's own, else its kind's (anonymous routes take small bodies). */
export const bodyLimitOf = (contract: Pick<Contract, "auth" | "maxBodyBytes">): number =>
  contract.maxBodyBytes ?? (contract.auth.kind === "anonymous" ? BODY_LIMITS.anonymous : BODY_LIMITS.json);

/** Nesting deeper than this is refused: legitimate bodies stay far below it, and deep nesting overflows recursive serialisers. */
export const MAX_JSON_DEPTH = 64;

/** The answer to a body over its cap. */
export const payloadTooLarge = (limit: number) =>
  new AppError("request.payload_too_large", `Request bodies here are limited to ${limit} bytes.`);

/** After a 413, at most this much more of the upload is read (and dropped), for at most this long. */
const DISCARD_BYTES = 16 * MiB;
const DISCARD_MS = 5_000;

/**
 * Reads and drops the rest of a refused upload in the background, then cancels the stream. Not
 * cancelling at once is deliberate: closing a connection with unread data resets it, and the
 * client could lose the 413 it has not read yet (a "lingering close", bounded in bytes and time).
 * Nothing is kept, so memory stays at one chunk.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const stop = () => void reader.cancel().catch(() => undefined);
  const timer = setTimeout(stop, DISCARD_MS);
  timer.unref?.();
  void (async () => {
    let dropped = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        dropped += value.byteLength;
        if (dropped > DISCARD_BYTES) return stop();
      }
    } catch {
      // The client went away: nothing left to drop.
    } finally {
      clearTimeout(timer);
    }
  })();
}

/**
 * The body as text, read chunk by chunk from the request's stream, refused with 413 as soon as
 * it passes `limit` bytes (or at once when Content-Length already says so). The 413 is answered
 * while the upload is still running; the rest is dropped unread (discardRest).
 */
export async function readBodyText(req: RouteRequest, limit: number): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (!req.body) return "";
  const reader = req.body.getReader();
  if (declared > limit) {
    discardRest(reader);
    throw payloadTooLarge(limit);
  }
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      discardRest(reader);
      throw payloadTooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Whether JSON text nests arrays and objects deeper than `max` (strings are skipped). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const tooDeep = () => validationError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);

/** JSON.parse with the nesting limit; malformed or too deep JSON is a 400. */
export function parseJsonText(text: string): unknown {
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
  try {
    return JSON.parse(text);
  } catch {
    throw validationError("The request body is not valid JSON.");
  }
}

/**
 * For handlers that read the body themselves (tRPC, next-auth): the body read under `limit`
 * (and, for JSON, within the nesting limit), or the problem to answer instead.
 */
export async function cappedBodyOrProblem(
  req: Request,
  limit: number,
  kind: "json" | "form",
): Promise<{ text: string } | { problem: Response }> {
  try {
    const text = await readBodyText(req, limit);
    if (kind === "json" && jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
    return { text };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { problem: problemResponse(error, new URL(req.url).pathname) };
  }
}
