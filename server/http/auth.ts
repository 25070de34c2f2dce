import type { RouteRequest } from "./route-request.ts";
import { decodeJwt } from "jose";
import { db } from "../db/client.ts";
import {
  CALLBACK_AUDIENCE,
  CLIENT_AUDIENCE,
  CONSUMER_AUDIENCE,
  verifyAccessToken,
} from "../domain/identity/access-tokens.ts";
import { isCallbackSubscriptionLive } from "../domain/webhooks/subscriptions/callback-scopes.ts";
import { isClientActive } from "../domain/identity/oauth-clients.ts";
import {
  hasScope,
  INTEGRATOR_SCOPE,
  verbForMethod,
  type ScopeResource,
  type ScopeVerb,
} from "../domain/identity/scopes.ts";
import { verifyLicenseToken, type LicenseClaims } from "../domain/licensing/tokens/license-token.ts";
import { AppError } from "../core/errors.ts";

export type ClientPrincipal = {
  kind: "client";
  tenantId: string;
  id: string;
  clientId: string;
  clientKind: string;
  scopes: string[];
};
export type ConsumerPrincipal = { kind: "consumer"; tenantId: string; id: string };
export type AnonymousPrincipal = { kind: "anonymous" };
/** A shipped application presenting its license token (docs/api.md "Authentication" item 5). */
export type LicensePrincipal = { kind: "license"; tenantId: string; id: string; claims: LicenseClaims };
export type Principal = ClientPrincipal | ConsumerPrincipal | AnonymousPrincipal | LicensePrincipal;

/** How a route authenticates its caller (docs/api.md "Authentication"). */
export type AuthRequirement =
  | { kind: "client"; resource: ScopeResource; verb?: ScopeVerb }
  | { kind: "integrator" }
  | { kind: "consumer" }
  | { kind: "license" }
  | { kind: "anonymous" };

/** `provision.<resource>.<verb>`; the verb follows the HTTP method unless the route names one. */
export const clientScope = (resource: ScopeResource, verb?: ScopeVerb) =>
  ({ kind: "client", resource, verb }) as const;
export const integrator = { kind: "integrator" } as const;
export const consumer = { kind: "consumer" } as const;
export const anonymous = { kind: "anonymous" } as const;
/** Session calls: the license token, whose `sub` must be the session in the path. */
export const licenseSession = { kind: "license" } as const;

export function requiredScope(requirement: AuthRequirement, method: string): string | null {
  if (requirement.kind === "client")
    return `provision.${requirement.resource}.${requirement.verb ?? verbForMethod(method)}`;
  if (requirement.kind === "integrator") return INTEGRATOR_SCOPE;
  return null;
}

const unauthenticated = (detail: string, error?: string) =>
  new AppError("auth.unauthenticated", detail, {
    headers: { "www-authenticate": error ? `Bearer error="${error}"` : "Bearer" },
  });

/** The token of an `Authorization: Bearer <token>` header; null when the header is absent or malformed. */
const bearerOf = (req: RouteRequest): string | null =>
  /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? null;

function bearerToken(req: RouteRequest): string {
  if (!req.headers.get("authorization")) throw unauthenticated("A bearer token is required.");
  const token = bearerOf(req);
  if (!token) throw unauthenticated("The Authorization header must be `Bearer <token>`.", "invalid_request");
  return token;
}

export async function authenticate(req: RouteRequest, requirement: AuthRequirement): Promise<Principal> {
  if (requirement.kind === "anonymous") return { kind: "anonymous" };
  if (requirement.kind === "license") return licensePrincipal(req);
  const token = bearerToken(req);
  if (requirement.kind === "consumer") return consumerPrincipal(token);
  const principal =
    requirement.kind === "client" && audienceOf(token) === CALLBACK_AUDIENCE
      ? await callbackPrincipal(token)
      : await clientPrincipal(token);
  const required = requiredScope(requirement, req.method)!;
  if (!hasScope(principal.scopes, required)) {
    throw new AppError("auth.insufficient_scope", `This request needs the scope ${required}.`, {
      headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${required}"` },
    });
  }
  return principal;
}

const tokenRejected = (detail: string) =>
  new AppError("license.session_token_rejected", detail, {
    headers: { "www-authenticate": 'Bearer error="invalid_token"' },
  });

async function licensePrincipal(req: RouteRequest): Promise<LicensePrincipal> {
  const token = bearerOf(req);
  if (!token)
    throw tokenRejected(
      "Session calls present the session's license token as `Authorization: Bearer <token>`.",
    );
  const claims = await verifyLicenseToken(db(), token);
  if (!claims) throw tokenRejected("The license token's signature, audience or lifetime does not validate.");
  return { kind: "license", tenantId: claims.tid, id: claims.sub, claims };
}

/**
 * Activation is anonymous; with `useInteractiveUser` the caller adds the end user's token. A token
 * that is present but does not validate is refused rather than ignored.
 */
export async function optionalConsumer(req: RouteRequest): Promise<ConsumerPrincipal | null> {
  return req.headers.get("authorization") ? consumerPrincipal(bearerToken(req)) : null;
}

async function consumerPrincipal(token: string): Promise<ConsumerPrincipal> {
  const claims = await verifyAccessToken(db(), token, CONSUMER_AUDIENCE);
  if (!claims) throw unauthenticated("The user token is invalid or expired.", "invalid_token");
  return { kind: "consumer", tenantId: claims.tid, id: claims.sub };
}

function audienceOf(token: string): string | undefined {
  try {
    const { aud } = decodeJwt(token);
    return Array.isArray(aud) ? aud[0] : aud;
  } catch {
    return undefined;
  }
}

async function clientPrincipal(token: string): Promise<ClientPrincipal> {
  const claims = await verifyAccessToken(db(), token, CLIENT_AUDIENCE);
  if (!claims || !(await isClientActive(db(), claims.cid)))
    throw unauthenticated("The access token is invalid, expired or revoked.", "invalid_token");
  return {
    kind: "client",
    tenantId: claims.tid,
    id: claims.cid,
    clientId: claims.sub,
    clientKind: claims.kind,
    scopes: claims.scope,
  };
}

/**
 * docs/api.md Authentication item 8: a webhook delivery's `webhook-callback-token` works as a bearer
 * token on client-scoped routes with exactly the subscription's callback scopes, while the
 * subscription exists and is Active. It acts as a client of kind `callback` named after it.
 */
async function callbackPrincipal(token: string): Promise<ClientPrincipal> {
  const claims = await verifyAccessToken(db(), token, CALLBACK_AUDIENCE);
  if (!claims || !(await isCallbackSubscriptionLive(db(), claims.tid, claims.sub))) {
    throw unauthenticated(
      "The callback token is invalid, expired, or its subscription is no longer active.",
      "invalid_token",
    );
  }
  return {
    kind: "client",
    tenantId: claims.tid,
    id: claims.cid,
    clientId: `callback:${claims.sub}`,
    clientKind: "callback",
    scopes: claims.scope,
  };
}
