import { z } from "zod";

/**
 * The API client's request and response shapes, apart from oauth-clients.ts so that the back
 * office's form validates with the very schema the API parses (that module hashes secrets and
 * reaches the database, which a browser bundle cannot load).
 */
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
  /** Integrator clients: the callback scopes their subscriptions may request (docs/security.md "Webhooks"). */
  callbackScopeAllowance: z.array(z.string()),
  /** The staff user who registered it; null for the CLI and tenant creation. */
  createdByUserId: z.string().uuid().nullable(),
});
export type TClientResponse = z.infer<typeof ZClientResponse>;
