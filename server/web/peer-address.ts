import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import {
  PEER_ADDRESS_HEADER,
  PEER_STAMP,
  PEER_STAMP_HEADER,
  peerStampHolder,
} from "../core/caller-address.ts";

/**
 * The web process's half of the caller's address (server/core/caller-address.ts reads it): the
 * process draws a secret when it starts and stamps it, with the socket's peer address, on every
 * request it answers or hands to Next.js.
 */

/**
 * Draws the process's stamp (the web process, once, before it serves), or takes the one its parent
 * drew (the Next.js process, server/web/next-process.ts, which checks what the web process stamped).
 */
export function armPeerStamp(given?: string): string {
  peerStampHolder[PEER_STAMP] ??= given || randomBytes(24).toString("base64url");
  return peerStampHolder[PEER_STAMP];
}

/** Overwrites whatever the client sent under the stamp's names with the socket's address and the secret. */
export function stampPeerAddress(headers: IncomingHttpHeaders, remoteAddress: string | undefined): void {
  const stamp = peerStampHolder[PEER_STAMP];
  if (!stamp) throw new Error("armPeerStamp() was not called");
  headers[PEER_ADDRESS_HEADER] = remoteAddress ?? "";
  headers[PEER_STAMP_HEADER] = stamp;
}
