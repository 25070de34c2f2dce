import type { DomainContext } from "../context.ts";
import type { Db } from "../../db/client.ts";
import { hashSecret, randomToken, verifySecret } from "../../crypto/tokens.ts";
import { now } from "../../clock.ts";
import { inTransaction } from "../../db/tenant-db.ts";
import { disableSubscriptionsOfRevokedClient } from "../webhooks/subscriptions/disable-revoked-client-subscriptions.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import { INTEGRATOR_SCOPE, isValidScopePattern } from "./scopes.ts";
import { assertScopesWithinRole } from "./staff-roles/staff-roles.ts";

import {
  clientKinds,
  ZClientCreateRequest,
  type ClientKind,
  type TClientCreateRequest,
  type TClientResponse,
} from "./oauth-clients.schemas.ts";

export {
  clientKinds,
  ZClientCreateRequest,
  ZClientResponse,
  type ClientKind,
  type TClientCreateRequest,
  type TClientResponse,
} from "./oauth-clients.schemas.ts";

type ClientRow = {
  id: string;
  clientId: string;
  name: string;
  kind: string;
  scopes: string[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  callbackScopeAllowance: string[];
  createdByUserId: string | null;
};

export function toClientResponse(row: ClientRow): TClientResponse {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    kind: row.kind,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    callbackScopeAllowance: row.callbackScopeAllowance,
    createdByUserId: row.createdByUserId,
  };
}

/** Registers an OAuth client; the secret is returned once and stored only as a hash. */
export async function createClient(ctx: DomainContext, input: TClientCreateRequest) {
  const parsed = ZClientCreateRequest.parse(input);
  const invalid = parsed.scopes.filter((scope) => !isValidScopePattern(scope));
  if (invalid.length)
    throw validationError(
      `Unknown scopes: ${invalid.join(", ")}.`,
      invalid.map((s) => ({ path: "scopes", message: `unknown scope ${s}` })),
    );
  if (parsed.kind === "integrator" && parsed.scopes.some((s) => s !== INTEGRATOR_SCOPE)) {
    throw validationError(`An integrator client holds only the ${INTEGRATOR_SCOPE} scope.`);
  }
  assertScopesWithinRole(ctx.actor, parsed.scopes);
  const clientSecret = randomToken("cs", 32);
  const row = await ctx.db.oAuthClient.create({
    data: {
      tenantId: ctx.tenantId,
      clientId: randomToken("ci", 12),
      secretHash: hashSecret(clientSecret),
      name: parsed.name,
      kind: parsed.kind,
      scopes: [...new Set(parsed.scopes)],
      // Its lifetime follows its creator's (creator-clients.ts).
      createdByUserId: ctx.actor.kind === "user" ? ctx.actor.id : null,
    },
  });
  return { client: toClientResponse(row), clientSecret };
}

export async function listClients(ctx: DomainContext) {
  const rows = await ctx.db.oAuthClient.findMany({ orderBy: { createdAt: "desc" } });
  return rows.map(toClientResponse);
}

/**
 * Revokes a client: its tokens are refused at once (server/http/auth.ts checks every use), and the
 * webhook subscriptions an integration created are disabled in the same transaction, with the
 * reason and an event, so their callback tokens fail at once too (docs/security.md "Webhooks").
 */
export async function revokeClient(ctx: DomainContext, id: string) {
  const row = await ctx.db.oAuthClient.findFirst({
    where: { OR: [{ id: isUuid(id) ? id : undefined }, { clientId: id }] },
  });
  if (!row) throw notFound("Client");
  assertScopesWithinRole(ctx.actor, row.scopes);
  if (row.revokedAt) return toClientResponse(row);
  return inTransaction(ctx.db, async (tx) => {
    const at = now();
    const revoked = await tx.oAuthClient.update({ where: { id: row.id }, data: { revokedAt: at } });
    await disableSubscriptionsOfRevokedClient({ ...ctx, db: tx }, revoked, at);
    return toClientResponse(revoked);
  });
}

/** The client behind a client_id/secret pair, or null: unknown id, revoked and wrong secret look alike. */
export async function authenticateClient(db: Db, clientId: string, clientSecret: string) {
  const row = await db.oAuthClient.findUnique({ where: { clientId } });
  if (!row || row.revokedAt || !verifySecret(clientSecret, row.secretHash)) return null;
  return row;
}

/** Whether the client behind a token is still registered; revoking a client ends its tokens at once. */
export async function isClientActive(db: Db, id: string): Promise<boolean> {
  const row = await db.oAuthClient.findUnique({ where: { id }, select: { revokedAt: true } });
  return !!row && !row.revokedAt;
}

export function ensureClientKind(kind: string): ClientKind {
  if ((clientKinds as readonly string[]).includes(kind)) return kind as ClientKind;
  throw new AppError("license.validation_error", `kind must be one of ${clientKinds.join(", ")}.`);
}

function isUuid(value: string) {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
