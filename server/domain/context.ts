import type { Db } from "../db/client.ts";
import { tenantDb, type TenantDbOrTx } from "../db/tenant-db.ts";
import type { StaffRole } from "./staff-role.ts";

export type Actor =
  | { kind: "client"; id: string; clientId: string; clientKind: string }
  /** A signed-in user; back-office staff carry their role (the API-client screen bounds scopes by it). */
  | { kind: "user"; id: string; staffRole?: StaffRole | null }
  | { kind: "system"; id: string }
  /** A shipped application on a session call; `id` is the session id from its license token, `entitlementId` its `ent`. */
  | { kind: "license"; id: string; entitlementId?: string };

/** What every domain function receives first (docs/architecture.md section 3): never a global tenant. */
export type DomainContext = {
  tenantId: string;
  actor: Actor;
  db: TenantDbOrTx;
  correlationId?: string;
};

/**
 * The context of work the service does on its own behalf (the CLI, the seed, the worker, tests):
 * tenant-scoped like any other, with a `system` actor naming who asked.
 */
export function systemContext(base: Db, tenantId: string, actorId: string): DomainContext {
  return { tenantId, actor: { kind: "system", id: actorId }, db: tenantDb(base, tenantId) };
}
