import type { Db } from "../../db/client.ts";
import { CLIENT_AUDIENCE, CONSUMER_AUDIENCE, signAccessToken } from "./access-tokens.ts";
import { authenticateClient } from "./oauth-clients.ts";
import { grantScopes, isValidScopePattern } from "./scopes.ts";
import { authenticateUser } from "./users.ts";
import { now } from "../../clock.ts";

/** RFC 6749 section 5.2 error; answered as `{error, error_description}`, not problem+json. */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unauthorized_client"
      | "unsupported_grant_type"
      | "invalid_scope",
    readonly description: string,
  ) {
    super(description);
  }
  get status(): number {
    return this.error === "invalid_client" ? 401 : 400;
  }
}

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope?: string;
};

export type TokenRequest = {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  scope?: string;
  username?: string;
  password?: string;
  /** Tenant slug, needed only when the user's email has accounts with several vendors. */
  tenant?: string;
};

/**
 * The token endpoint. `client_credentials` for vendor backends and integrations (scopes =
 * requested ∩ registered; none requested → a token every admin route refuses);
 * `password` for first-party end-user apps (a consumer token for `consumer/me/*`).
 */
export async function issueToken(db: Db, form: TokenRequest): Promise<TokenResponse> {
  if (!form.grant_type) throw new OAuthError("invalid_request", "grant_type is required.");
  if (form.grant_type === "client_credentials") return clientCredentials(db, form);
  if (form.grant_type === "password") return passwordGrant(db, form);
  throw new OAuthError(
    "unsupported_grant_type",
    `grant_type ${form.grant_type} is not supported; use client_credentials.`,
  );
}

async function clientCredentials(db: Db, form: TokenRequest): Promise<TokenResponse> {
  if (!form.client_id || !form.client_secret)
    throw new OAuthError("invalid_request", "client_id and client_secret are required.");
  const requested = (form.scope ?? "").split(" ").filter(Boolean);
  const unknown = requested.filter((s) => !isValidScopePattern(s));
  const client = await authenticateClient(db, form.client_id, form.client_secret);
  if (!client) throw new OAuthError("invalid_client", "Client authentication failed.");
  if (unknown.length)
    throw new OAuthError("invalid_scope", `Unknown scope: ${unknown.join(" ")}. See GET /api/v1/scopes.`);
  const granted = grantScopes(requested, client.scopes);
  if (requested.length && !granted.length)
    throw new OAuthError("invalid_scope", "None of the requested scopes is registered for this client.");
  await db.oAuthClient.update({ where: { id: client.id }, data: { lastUsedAt: now() } });
  const { token, expiresIn } = await signAccessToken(db, {
    aud: CLIENT_AUDIENCE,
    sub: client.clientId,
    tid: client.tenantId,
    cid: client.id,
    kind: client.kind,
    scope: granted,
  });
  return { access_token: token, token_type: "Bearer", expires_in: expiresIn, scope: granted.join(" ") };
}

async function passwordGrant(db: Db, form: TokenRequest): Promise<TokenResponse> {
  if (!form.username || !form.password)
    throw new OAuthError("invalid_request", "username and password are required.");
  const result = await authenticateUser(db, {
    email: form.username,
    password: form.password,
    kind: "consumer",
    tenant: form.tenant,
  });
  if (!result.ok) {
    if (result.reason === "choose-tenant")
      throw new OAuthError(
        "invalid_request",
        "This email has accounts with several vendors; pass `tenant` (the vendor's slug).",
      );
    // A blocked user is refused as the portal's sign-in refuses them (docs/security.md "Round 3").
    throw new OAuthError(
      "invalid_grant",
      result.reason === "blocked" ? "This user is blocked by the vendor." : "Invalid username or password.",
    );
  }
  const { token, expiresIn } = await signAccessToken(db, {
    aud: CONSUMER_AUDIENCE,
    sub: result.user.id,
    tid: result.user.tenantId,
    cid: result.user.id,
    kind: "user",
    scope: [],
  });
  return { access_token: token, token_type: "Bearer", expires_in: expiresIn };
}
