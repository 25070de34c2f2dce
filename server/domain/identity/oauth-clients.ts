import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { hashSecret, randomToken, verifySecret } from "../../crypto/tokens.ts";
import { now } from "../../clock.ts";
import { AppError, notFound, validationError } from "../../http/errors.ts";
import { INTEGRATOR_SCOPE, isValidScopePattern } from "./scopes.ts";

export const clientKinds = ["admin", "operational", "integrator"] as const;
export type ClientKind = (typeof clientKinds)[number];

export const ZClientCreateRequest = z.object({
  name: z.string().trim().min(1).max(200),
  kind: z.enum(clientKinds).default("admin"),
  scopes: z.array(z.string().trim().min(1)).min(1).max(100),
});
export type TClientCreateRequest = z.input<typeof ZClientCreateRequest>;

export const ZClientResponse = z.object({
  id: z.string().uuid(),
  clientId: z.string(),
  name: z.string(),
  kind: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type TClientResponse = z.infer<typeof ZClientResponse>;

type ClientRow = { id: string; clientId: string; name: string; kind: string; scopes: string[]; createdAt: Date; revokedAt: Date | null; lastUsedAt: Date | null };

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
  };
}

/** Registers an OAuth client; the secret is returned once and stored only as a hash. */
export async function createClient(db: Db, tenantId: string, input: TClientCreateRequest) {
  const parsed = ZClientCreateRequest.parse(input);
  const invalid = parsed.scopes.filter((scope) => !isValidScopePattern(scope));
  if (invalid.length) throw validationError(`Unknown scopes: ${invalid.join(", ")}.`, invalid.map((s) => ({ path: "scopes", message: `unknown scope ${s}` })));
  if (parsed.kind === "integrator" && parsed.scopes.some((s) => s !== INTEGRATOR_SCOPE)) {
    throw validationError(`An integrator client holds only the ${INTEGRATOR_SCOPE} scope.`);
  }
  const clientSecret = randomToken("cs", 32);
  const row = await db.oAuthClient.create({
    data: {
      tenantId,
      clientId: randomToken("ci", 12),
      secretHash: hashSecret(clientSecret),
      name: parsed.name,
      kind: parsed.kind,
      scopes: [...new Set(parsed.scopes)],
    },
  });
  return { client: toClientResponse(row), clientSecret };
}

export async function listClients(db: Db, tenantId: string) {
  const rows = await db.oAuthClient.findMany({ where: { tenantId }, orderBy: { createdAt: "desc" } });
  return rows.map(toClientResponse);
}

export async function revokeClient(db: Db, tenantId: string, id: string) {
  const row = await db.oAuthClient.findFirst({ where: { tenantId, OR: [{ id: isUuid(id) ? id : undefined }, { clientId: id }] } });
  if (!row) throw notFound("Client");
  if (row.revokedAt) return toClientResponse(row);
  return toClientResponse(await db.oAuthClient.update({ where: { id: row.id }, data: { revokedAt: now() } }));
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
