import type { Db } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { CALLBACK_AUDIENCE, signAccessToken } from "../identity/access-tokens.ts";
import { CALLBACK_TOKEN_SECONDS } from "./settings.ts";

/**
 * SPEC.md: callback scopes cover catalog, licenses, sessions, usage, quotas, credit balances,
 * metrics and ratings; never account administration, sign-up, privacy, connector settings, delete
 * verbs or wildcards. Each family maps to concrete scopes of our catalog (docs/decisions.md).
 */
export const callbackScopeFamilies: Record<string, readonly string[]> = {
  catalog: [
    "provision.product.read", "provision.feature-catalog.read", "provision.suite.read", "provision.plan-set.read",
    "provision.add-on.read", "provision.tag.read",
  ],
  licenses: ["provision.entitlement-adm.read", "provision.activation-code.read"],
  sessions: ["provision.session.read"],
  usage: ["provision.monitored-asset.read"],
  quotas: ["provision.monitored-asset.read"],
  "credit balances": ["provision.balance.read", "provision.balance.create", "provision.balance.update"],
  metrics: ["provision.monitored-asset.read", "provision.product.read"],
  ratings: ["provision.rating-campaign.read"],
};

export const allowedCallbackScopes: readonly string[] = [...new Set(Object.values(callbackScopeFamilies).flat())].sort();

/** Refuses (400 subscription.invalid_callback_scope) any scope outside the allowed list. Returns them deduplicated. */
export function validateCallbackScopes(scopes: readonly string[]): string[] {
  const refused = scopes.filter((scope) => !allowedCallbackScopes.includes(scope));
  if (refused.length) {
    throw new AppError(
      "subscription.invalid_callback_scope",
      `Callback scopes are limited to catalog, license, session, usage, quota, credit balance, metric and rating scopes without wildcards or delete verbs; refused: ${refused.join(", ")}.`,
      { issues: refused.map((scope) => ({ path: "body.callbackScopes", message: `${scope} is not an allowed callback scope` })) },
    );
  }
  return [...new Set(scopes)];
}

/**
 * The `webhook-callback-token` of one attempt: a JWT (audience `callback`) carrying exactly the
 * subscription's callback scopes, valid for 5 minutes. The REST API accepts it as a bearer token
 * on client-scoped routes while the subscription exists and is Active (server/http/auth.ts).
 */
export async function issueCallbackToken(db: Db, subscription: { id: string; tenantId: string; callbackScopes: readonly string[] }): Promise<string> {
  const { token } = await signAccessToken(
    db,
    { aud: CALLBACK_AUDIENCE, sub: subscription.id, tid: subscription.tenantId, cid: subscription.id, kind: "callback", scope: [...subscription.callbackScopes] },
    CALLBACK_TOKEN_SECONDS,
  );
  return token;
}

/** A callback token works only while its subscription exists and is Active. */
export async function isCallbackSubscriptionLive(db: Db, tenantId: string, subscriptionId: string): Promise<boolean> {
  const row = await db.webhookSubscription.findFirst({ where: { id: subscriptionId, tenantId, state: "Active" }, select: { id: true } });
  return row !== null;
}
