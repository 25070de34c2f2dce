import type { RouteRequest } from "./route-request.ts";
import type { ActivationMeta } from "../domain/licensing/activation/activate.ts";
import type { ActivationCode } from "../db/generated/client.ts";
import { optionalConsumer } from "./auth.ts";
import { idempotencyKeyOf } from "./idempotency.ts";
import { callerIp } from "../core/caller-address.ts";

/** What an activation needs from the request beside its body: address, durable Idempotency-Key, the end user. */
export async function activationMeta(
  req: RouteRequest,
  useInteractiveUser: boolean | undefined,
  activationCode?: ActivationCode | null,
): Promise<ActivationMeta> {
  const idempotencyKey = idempotencyKeyOf(req);
  const user = useInteractiveUser ? await optionalConsumer(req) : null;
  return {
    kind: "Online",
    ip: callerIp(req),
    idempotencyKey,
    user,
    ...(activationCode !== undefined ? { activationCode } : {}),
  };
}
