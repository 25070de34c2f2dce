import type { RouteRequest } from "./route-request.ts";
import type { ActivationMeta } from "../domain/licensing/activation/activate.ts";
import type { ActivationCode } from "../db/generated/client.ts";
import { optionalConsumer } from "./auth.ts";
import { validationError } from "../core/errors.ts";
import { ZIdempotencyKey } from "./idempotency.ts";
import { callerIp } from "../core/caller-address.ts";

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
