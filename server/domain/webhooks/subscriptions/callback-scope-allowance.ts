import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import {
  assertCallbackScopesGrantable,
  trimCallbackScopesToAllowance,
  validateCallbackScopes,
} from "./callback-scopes.ts";
import { adminAccess } from "./subscription-access.ts";

export const ZIntegratorClientParams = z.object({ clientId: z.string().trim().min(1).max(200) });

export const ZCallbackScopeAllowanceRequest = z.object({
  /** Callback scopes the integration's subscriptions may request; [] allows none. */
  callbackScopes: z.array(z.string().trim().min(1)).max(50),
});
export type TCallbackScopeAllowanceRequest = z.infer<typeof ZCallbackScopeAllowanceRequest>;

export const ZCallbackScopeAllowanceResponse = z.object({
  /** The OAuth client's id (row id). */
  id: z.string().uuid(),
  clientId: z.string(),
  name: z.string(),
  callbackScopes: z.array(z.string()),
  /** Subscriptions of the integration whose callback scopes the change narrowed. */
  subscriptionsNarrowed: z.number().int().optional(),
});
export type TCallbackScopeAllowanceResponse = z.infer<typeof ZCallbackScopeAllowanceResponse>;

const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** The integrator client by row id or client_id; 404 for another tenant's or an unknown one. */
async function findIntegratorClient(ctx: DomainContext, id: string) {
  const row = await ctx.db.oAuthClient.findFirst({
    where: { OR: [...(isUuid(id) ? [{ id }] : []), { clientId: id }] },
  });
  if (!row) throw notFound("Client");
  if (row.kind !== "integrator" || row.revokedAt)
    throw new AppError(
      "client.not_integrator",
      row.revokedAt
        ? "The client is revoked; a revoked integration gets no callback scopes."
        : `Callback-scope allowances are for integrator clients; this one is ${row.kind}, and its own scopes bound what it may grant.`,
    );
  return row;
}

const toResponse = (row: {
  id: string;
  clientId: string;
  name: string;
  callbackScopeAllowance: string[];
}) => ({
  id: row.id,
  clientId: row.clientId,
  name: row.name,
  callbackScopes: row.callbackScopeAllowance,
});

/** The callback scopes an integrator client's subscriptions may request. */
export async function getCallbackScopeAllowance(
  ctx: DomainContext,
  clientId: string,
): Promise<TCallbackScopeAllowanceResponse> {
  return toResponse(await findIntegratorClient(ctx, clientId));
}

/**
 * docs/security.md "Webhooks": the tenant's admin decides which callback scopes an integration may
 * put on its subscriptions (empty by default). The admin may allow only scopes it may grant
 * itself; narrowing the allowance narrows the integration's existing subscriptions at once.
 */
export async function setCallbackScopeAllowance(
  ctx: DomainContext,
  clientId: string,
  input: TCallbackScopeAllowanceRequest,
): Promise<TCallbackScopeAllowanceResponse> {
  const scopes = validateCallbackScopes(ZCallbackScopeAllowanceRequest.parse(input).callbackScopes).sort();
  const client = await findIntegratorClient(ctx, clientId);
  await assertCallbackScopesGrantable(ctx, adminAccess, scopes);
  return inTransaction(ctx.db, async (tx) => {
    const row = await tx.oAuthClient.update({
      where: { id: client.id },
      data: { callbackScopeAllowance: scopes },
    });
    const subscriptionsNarrowed = await trimCallbackScopesToAllowance(tx, client.id, scopes);
    return { ...toResponse(row), subscriptionsNarrowed };
  });
}
