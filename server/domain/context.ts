import type { TenantDbOrTx } from "../db/tenant-db.ts";

export type Actor =
  | { kind: "client"; id: string; clientId: string; clientKind: string }
  | { kind: "user"; id: string }
  | { kind: "system"; id: string }
  /** A shipped application on a session call; `id` is the session id from its license token. */
  | { kind: "license"; id: string };

/** What every domain function receives first (DESIGN.md section 3): never a global tenant. */
export type DomainContext = {
  tenantId: string;
  actor: Actor;
  db: TenantDbOrTx;
  correlationId?: string;
};
