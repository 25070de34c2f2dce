import type { Db } from "../../../db/client.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { AppError } from "../../../core/errors.ts";
import type { DomainContext } from "../../context.ts";
import { CALLBACK_AUDIENCE, signAccessToken } from "../../identity/access-tokens.ts";
import { hasScope } from "../../identity/scopes.ts";
import { CALLBACK_TOKEN_SECONDS } from "../delivery/settings.ts";
import type { SubscriptionAccess } from "./subscription-access.ts";

/**
 * docs/api.md: callback scopes cover catalog, licenses, sessions, usage, quotas, credit balances,
 * metrics and ratings; never account administration, sign-up, privacy, connector settings, delete
 * verbs or wildcards. Each family maps to concrete scopes of our catalog (docs/decisions.md).
 */
export const callbackScopeFamilies: Record<string, readonly string[]> = {
  catalog: [
    "provision.product.read",
    "provision.feature-catalog.read",
    "provision.suite.read",
    "provision.plan-set.read",
    "provision.add-on.read",
    "provision.tag.read",
  ],
  licenses: ["provision.entitlement-adm.read", "provision.activation-code.read"],
  sessions: ["provision.session.read"],
  usage: ["provision.monitored-asset.read", "provision.usage.read"],
  quotas: ["provision.monitored-asset.read"],
  "credit balances": ["provision.balance.read", "provision.balance.create", "provision.balance.update"],
  metrics: ["provision.monitored-asset.read", "provision.product.read"],
  ratings: ["provision.rating-campaign.read"],
};

export const allowedCallbackScopes: readonly string[] = [
  ...new Set(Object.values(callbackScopeFamilies).flat()),
].sort();

/** Refuses (400 subscription.invalid_callback_scope) any scope outside the allowed list. Returns them deduplicated. */
export function validateCallbackScopes(scopes: readonly string[]): string[] {
  const refused = scopes.filter((scope) => !allowedCallbackScopes.includes(scope));
  if (refused.length) {
    throw new AppError(
      "subscription.invalid_callback_scope",
      `Callback scopes are limited to catalog, license, session, usage, quota, credit balance, metric and rating scopes without wildcards or delete verbs; refused: ${refused.join(", ")}.`,
      {
        issues: refused.map((scope) => ({
          path: "body.callbackScopes",
          message: `${scope} is not an allowed callback scope`,
        })),
      },
    );
  }
  return [...new Set(scopes)];
}

/**
 * docs/security.md "Webhooks": callback scopes are a grant, so a credential may set only scopes it
 * may grant itself. Back-office staff and the service: any allowed callback scope. An OAuth client
 * on the tenant-admin surface: the scopes registered on it (wildcards count). An integrator client:
 * the allowance the tenant's admin set on it (empty by default). Refused whole with 403
 * `subscription.callback_scope_not_granted`.
 */
export async function assertCallbackScopesGrantable(
  ctx: DomainContext,
  access: SubscriptionAccess,
  scopes: readonly string[],
): Promise<void> {
  if (scopes.length === 0 || ctx.actor.kind === "user" || ctx.actor.kind === "system") return;
  const client =
    ctx.actor.kind === "client"
      ? await ctx.db.oAuthClient.findFirst({
          where: { id: ctx.actor.id, revokedAt: null },
          select: { scopes: true, callbackScopeAllowance: true },
        })
      : null;
  const integrator = access.surface === "integrator";
  const grantable = (scope: string) =>
    !!client && (integrator ? client.callbackScopeAllowance.includes(scope) : hasScope(client.scopes, scope));
  const refused = scopes.filter((scope) => !grantable(scope));
  if (refused.length === 0) return;
  throw new AppError(
    "subscription.callback_scope_not_granted",
    integrator
      ? `This integration may request only the callback scopes the tenant's administrator allowed it (${client?.callbackScopeAllowance.join(", ") || "none"}); refused: ${refused.join(", ")}.`
      : `Callback scopes are limited to what this credential holds itself; refused: ${refused.join(", ")}.`,
    {
      issues: refused.map((scope) => ({
        path: "body.callbackScopes",
        message: `${scope} is not granted to this credential`,
      })),
    },
  );
}

/**
 * The `webhook-callback-token` of one attempt: a JWT (audience `callback`) carrying exactly the
 * subscription's callback scopes, valid for 5 minutes. The REST API accepts it as a bearer token
 * on client-scoped routes while the subscription exists and is Active (server/http/auth.ts).
 */
export async function issueCallbackToken(
  db: Db,
  subscription: { id: string; tenantId: string; callbackScopes: readonly string[] },
): Promise<string> {
  const { token } = await signAccessToken(
    db,
    {
      aud: CALLBACK_AUDIENCE,
      sub: subscription.id,
      tid: subscription.tenantId,
      cid: subscription.id,
      kind: "callback",
      scope: [...subscription.callbackScopes],
    },
    CALLBACK_TOKEN_SECONDS,
  );
  return token;
}

/**
 * A callback token works only while its subscription exists and is Active and, for an
 * integration's subscription, while that integration's credential is not revoked (checked at
 * every use: revoking the client ends its tokens at once).
 */
export async function isCallbackSubscriptionLive(
  db: Db,
  tenantId: string,
  subscriptionId: string,
): Promise<boolean> {
  const row = await db.webhookSubscription.findFirst({
    where: { id: subscriptionId, tenantId, state: "Active" },
    select: { ownerClientId: true },
  });
  if (!row) return false;
  if (!row.ownerClientId) return true;
  const owner = await db.oAuthClient.findFirst({
    where: { id: row.ownerClientId, tenantId, revokedAt: null },
    select: { id: true },
  });
  return owner !== null;
}

/** Narrows the callback scopes of an integration's subscriptions to its (new) allowance. */
export async function trimCallbackScopesToAllowance(
  db: TenantDbOrTx,
  ownerClientId: string,
  allowance: readonly string[],
): Promise<number> {
  const owned = await db.webhookSubscription.findMany({
    where: { ownerClientId, createdVia: "integrator" },
    select: { id: true, callbackScopes: true },
  });
  let trimmed = 0;
  for (const s of owned) {
    const kept = s.callbackScopes.filter((scope) => allowance.includes(scope));
    if (kept.length === s.callbackScopes.length) continue;
    await db.webhookSubscription.updateMany({
      where: { id: s.id },
      data: { callbackScopes: kept, revisionNumber: { increment: 1 } },
    });
    trimmed++;
  }
  return trimmed;
}
