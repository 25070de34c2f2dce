import type { DomainContext } from "../domain/context.ts";
import type { Principal } from "./auth.ts";

/** The domain context of an authenticated request: its tenant, actor and correlation id, on `db`. */
export function domainContextOf(
  principal: Principal,
  db: DomainContext["db"],
  correlationId: string,
): DomainContext | undefined {
  if (principal.kind === "anonymous") return undefined;
  return {
    tenantId: principal.tenantId,
    db,
    correlationId,
    actor:
      principal.kind === "client"
        ? { kind: "client", id: principal.id, clientId: principal.clientId, clientKind: principal.clientKind }
        : principal.kind === "license"
          ? { kind: "license", id: principal.id, entitlementId: principal.claims.ent }
          : { kind: "user", id: principal.id },
  };
}
