import type { RouteRequest } from "./route-request.ts";
import type { ActivationMeta } from "../domain/licensing/activation/activate.ts";
import type { ActivationCode } from "../db/generated/client.ts";
import { optionalConsumer } from "./auth.ts";
import { validationError } from "../core/errors.ts";
import { ZIdempotencyKey } from "./idempotency.ts";
import { trustedProxyHops } from "../config.ts";
import { stampedPeerAddress } from "../web/peer-address.ts";

/**
 * The caller's address for activationPolicy.allowedIpCidr. The web entry (server/web/main.ts) stamps the
 * TCP peer's address on every request with a per-process secret (server/web/peer-address.ts); an
 * address without that stamp (plain `next start`, or a client sending the header itself) is
 * unknown. Behind proxies, TRUSTED_PROXY_HOPS=N takes the address the outermost of
 * the N trusted proxies saw: the N-th X-Forwarded-For entry from the right. A client's own
 * X-Forwarded-For entries are never trusted beyond that. Unknown → null (the policy then refuses).
 */
export function callerIp(req: Pick<RouteRequest, "headers">): string | null {
  const peer = stampedPeerAddress(req);
  const hops = trustedProxyHops();
  if (hops === 0 || !peer) return peer;
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return forwarded.length >= hops ? forwarded[forwarded.length - hops] : peer;
}

/** What an activation needs from the request beside its body: address, durable Idempotency-Key, the end user. */
export async function activationMeta(
  req: RouteRequest,
  useInteractiveUser: boolean | undefined,
  activationCode?: ActivationCode | null,
): Promise<ActivationMeta> {
  const raw = req.headers.get("idempotency-key");
  const key = raw === null ? null : ZIdempotencyKey.safeParse(raw);
  if (key && !key.success)
    throw validationError(key.error.issues[0].message, [
      { path: "header.Idempotency-Key", message: key.error.issues[0].message },
    ]);
  const user = useInteractiveUser ? await optionalConsumer(req) : null;
  return {
    kind: "Online",
    ip: callerIp(req),
    idempotencyKey: key?.success ? key.data : null,
    user,
    ...(activationCode !== undefined ? { activationCode } : {}),
  };
}
