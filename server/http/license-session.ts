import { AppError } from "../core/errors.ts";
import type { Principal } from "./auth.ts";

/**
 * The session and license a session call acts on: the path's session, which must be the license
 * token's (`sub`), and the token's entitlement (`ent`), so usage calls need no lookup to find it.
 */
export function licensedSession(principal: Principal, pathSessionId: string) {
  if (principal.kind !== "license" || principal.id !== pathSessionId)
    throw new AppError("license.session_token_rejected", "The license token belongs to another session.");
  return { sessionId: pathSessionId, entitlementId: principal.claims.ent };
}
