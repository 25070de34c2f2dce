import type { ActivationMeta } from "../domain/licensing/activate.ts";
import { optionalConsumer } from "./auth.ts";
import { validationError } from "./errors.ts";
import { ZIdempotencyKey } from "./idempotency.ts";
import { trustedProxyHops } from "../config.ts";

/**
 * The caller's address for activationPolicy.allowedIpCidr. The web process stamps the TCP peer's
 * address on every request (`x-licensing-peer-address`, scripts/lib/peer-address.mjs, overwriting
 * anything a client sent). Behind proxies, TRUSTED_PROXY_HOPS=N takes the address the outermost of
 * the N trusted proxies saw: the N-th X-Forwarded-For entry from the right. A client's own
 * X-Forwarded-For entries are never trusted beyond that. Unknown → null (the policy then refuses).
 */
export function callerIp(req: Request): string | null {
  const peer = req.headers.get("x-licensing-peer-address") || null;
  const hops = trustedProxyHops();
  if (hops === 0 || !peer) return peer;
  const forwarded = (req.headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return forwarded.length >= hops ? forwarded[forwarded.length - hops] : peer;
}

/** What an activation needs from the request beside its body: address, durable Idempotency-Key, the end user. */
export async function activationMeta(req: Request, useInteractiveUser: boolean | undefined): Promise<ActivationMeta> {
  const raw = req.headers.get("idempotency-key");
  const key = raw === null ? null : ZIdempotencyKey.safeParse(raw);
  if (key && !key.success) throw validationError(key.error.issues[0].message, [{ path: "header.Idempotency-Key", message: key.error.issues[0].message }]);
  const user = useInteractiveUser ? await optionalConsumer(req) : null;
  return { kind: "Online", ip: callerIp(req), idempotencyKey: key?.success ? key.data : null, user };
}
