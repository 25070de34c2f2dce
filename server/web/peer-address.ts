import type { RouteRequest } from "../http/route-request.ts";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * The caller's TCP address reaches route handlers as a request header, because Next.js hands them
 * a `Request` without the socket. A header is something any client can send, so the web entry
 * (server/web/main.ts) stamps two: the address, and a secret drawn when the process started that no
 * client knows. A handler trusts the address only beside that secret; a process not started
 * through the web entry (plain `next start`) has no secret, so every address is unknown there and
 * activationPolicy.allowedIpCidr refuses (fails closed; docs/security.md).
 */
export const PEER_ADDRESS_HEADER = "x-licensing-peer-address";
export const PEER_STAMP_HEADER = "x-licensing-peer-stamp";

// On globalThis: the web entry's modules and the copies Next.js bundled are two module graphs in
// one process, and both must see the one secret.
const STAMP = Symbol.for("licensing.peerStamp");
const holder = globalThis as unknown as { [STAMP]?: string };

/**
 * Draws the process's stamp (the web entry, once, before it serves), or takes the one its parent
 * drew (the Next.js process, server/web/next-process.ts, which checks what the web entry stamped).
 */
export function armPeerStamp(given?: string): string {
  holder[STAMP] ??= given || randomBytes(24).toString("base64url");
  return holder[STAMP];
}

/** Overwrites whatever the client sent under the stamp's names with the socket's address and the secret. */
export function stampPeerAddress(headers: IncomingHttpHeaders, remoteAddress: string | undefined): void {
  const stamp = holder[STAMP];
  if (!stamp) throw new Error("armPeerStamp() was not called");
  headers[PEER_ADDRESS_HEADER] = remoteAddress ?? "";
  headers[PEER_STAMP_HEADER] = stamp;
}

/** The stamped TCP peer address, or null when the stamp is missing or forged. */
export function stampedPeerAddress(req: Pick<RouteRequest, "headers">): string | null {
  const stamp = holder[STAMP];
  const given = req.headers.get(PEER_STAMP_HEADER);
  if (!stamp || !given) return null;
  const a = Buffer.from(given);
  const b = Buffer.from(stamp);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return req.headers.get(PEER_ADDRESS_HEADER) || null;
}
