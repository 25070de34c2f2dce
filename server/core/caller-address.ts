import { timingSafeEqual } from "node:crypto";
import { trustedProxyHops } from "../config.ts";

/**
 * The caller's TCP address reaches route handlers as a request header, because Next.js hands them
 * a `Request` without the socket. A header is something any client can send, so the web process
 * (server/web/peer-address.ts) stamps two: the address, and a secret drawn when the process
 * started that no client knows. A handler trusts the address only beside that secret; a process
 * not started through the web process (plain `next start`) has no secret, so every address is
 * unknown there and activationPolicy.allowedIpCidr refuses (fails closed; docs/security.md).
 * This half reads the stamp; it sits below the transports so the REST routes, the runtime lane
 * and sign-in (server/auth) share it without importing one another.
 */
export const PEER_ADDRESS_HEADER = "x-licensing-peer-address";
export const PEER_STAMP_HEADER = "x-licensing-peer-stamp";

// On globalThis: the web process's modules and the copies Next.js bundled are two module graphs
// in one process, and both must see the one secret.
export const PEER_STAMP: symbol = Symbol.for("licensing.peerStamp");
export const peerStampHolder = globalThis as unknown as Record<symbol, string | undefined>;

type WithHeaders = { readonly headers: Pick<Headers, "get"> };

/** The stamped TCP peer address, or null when the stamp is missing or forged. */
export function stampedPeerAddress(req: WithHeaders): string | null {
  const stamp = peerStampHolder[PEER_STAMP];
  const given = req.headers.get(PEER_STAMP_HEADER);
  if (!stamp || !given) return null;
  const a = Buffer.from(given);
  const b = Buffer.from(stamp);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return req.headers.get(PEER_ADDRESS_HEADER) || null;
}

/**
 * The caller's address for activationPolicy.allowedIpCidr and the per-address rate limits: the
 * stamped TCP peer. Behind proxies, TRUSTED_PROXY_HOPS=N takes the address the outermost of the N
 * trusted proxies saw: the N-th X-Forwarded-For entry from the right. A client's own
 * X-Forwarded-For entries are never trusted beyond that. Unknown → null (the policy then refuses).
 */
export function callerIp(req: WithHeaders): string | null {
  const peer = stampedPeerAddress(req);
  const hops = trustedProxyHops();
  if (hops === 0 || !peer) return peer;
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return forwarded.length >= hops ? forwarded[forwarded.length - hops] : peer;
}
