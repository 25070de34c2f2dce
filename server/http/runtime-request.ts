import type { ActivationMeta } from "../domain/licensing/activate.ts";
import { optionalConsumer } from "./auth.ts";
import { validationError } from "./errors.ts";
import { ZIdempotencyKey } from "./idempotency.ts";

/**
 * The caller's address for activationPolicy.allowedIpCidr: the right-most X-Forwarded-For entry,
 * i.e. the one the nearest proxy (Next.js's own server, or the deployment's load balancer) wrote.
 * Deployments put the service behind a proxy that sets the header (README, "Configuration").
 */
export function callerIp(req: Request): string | null {
  const forwarded = req.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  return last ?? req.headers.get("x-real-ip");
}

/** What an activation needs from the request beside its body: address, durable Idempotency-Key, the end user. */
export async function activationMeta(req: Request, useInteractiveUser: boolean | undefined): Promise<ActivationMeta> {
  const raw = req.headers.get("idempotency-key");
  const key = raw === null ? null : ZIdempotencyKey.safeParse(raw);
  if (key && !key.success) throw validationError(key.error.issues[0].message, [{ path: "header.Idempotency-Key", message: key.error.issues[0].message }]);
  const user = useInteractiveUser ? await optionalConsumer(req) : null;
  return { kind: "Online", ip: callerIp(req), idempotencyKey: key?.success ? key.data : null, user };
}
