import { processSql } from "../../db/sql.ts";
import { emailKey, type UserKind } from "./users.ts";
import {
  countRateLimits,
  type RateLimitHit,
  type RateLimitState,
  type RateLimitTenant,
} from "../rate-limits/hit-rate-limits.ts";
import type { RateLimitName } from "../rate-limits/rate-limit-policies.ts";

/**
 * Whose credential a request presents, as the check that verifies it sees it (docs/security.md
 * "Round 3", items 1 and 2): a password is checked against the trimmed, lower-cased email
 * (`emailKey`), so every spelling of one email is one identity; a client secret against the exact
 * client id. A consumer's password counts alike on the portal's sign-in and the token endpoint's
 * password grant: both check the same password, so they share one budget.
 */
export type CredentialIdentity =
  { kind: "password"; userKind: UserKind; email: string } | { kind: "client-secret"; clientId: string };

/** The canonical key of an identity (without the caller's address). */
export function credentialKey(identity: CredentialIdentity): string {
  return identity.kind === "password"
    ? `${identity.userKind}|${emailKey(identity.email)}`
    : identity.clientId;
}

const limitOf = (identity: CredentialIdentity): RateLimitName =>
  identity.kind === "password" ? "signin.failed_password" : "token.failed_secret";

/** The outcome of a check, as the back-off counts it. */
export type CredentialOutcome = "failed" | "not-failed";

export type CredentialAttempt = {
  /** Every limit the request was counted against (the failed-credential one last). */
  states: RateLimitState[];
  /** The failed-credential limit's state when the attempt is refused (nothing may be checked). */
  refused: RateLimitState | null;
  /**
   * Settles the reservation once the check has run: a failed check keeps it; anything else (the
   * right credential, a request refused before any check) gives it back. Returns the states after.
   */
  settle(outcome: CredentialOutcome): Promise<RateLimitState[]>;
};

const REFUND = {
  name: "rate-limit-refund",
  text: `UPDATE "RateLimitCounter" SET "hits" = greatest("hits" - 1, 0)
WHERE "bucket" = $1 AND "windowStart" = $2`,
};

/**
 * Counts a credential attempt BEFORE its check (a reservation), so a parallel burst cannot pass
 * the back-off: the counter is bumped atomically (INSERT ... ON CONFLICT ... RETURNING), the
 * attempt that takes it past the limit is refused without being checked, and at most `limit`
 * checks run per window whatever the concurrency. A check that does not fail refunds its
 * reservation, so signing in successfully never uses up the budget. Keyed by the canonical
 * identity and the caller's address (so nobody locks a user out from elsewhere). `also` are
 * further limits counted in the same statement (the token endpoint's per-client limit).
 */
export async function reserveCredentialAttempt(
  identity: CredentialIdentity,
  address: string | null,
  also: RateLimitHit[] = [],
): Promise<CredentialAttempt> {
  const name = limitOf(identity);
  const hit: RateLimitHit = { name, key: `${credentialKey(identity)}|${address ?? "unknown"}` };
  const tenant: RateLimitTenant = identity.kind === "client-secret" ? { clientId: identity.clientId } : {};
  const { states, counters } = await countRateLimits(tenant, [...also, hit]);
  const state = states.find((s) => s.name === name);
  const counter = counters.find((c) => c.bucket.startsWith(`${name}:`));
  const refused = states.find((s) => s.exceeded) ?? null;
  return {
    states,
    refused,
    async settle(outcome) {
      if (outcome === "failed" || !state || !counter || refused) return states;
      await processSql().query(REFUND, [counter.bucket, counter.windowStart]);
      return states.map((s) => (s === state ? { ...s, remaining: Math.min(s.limit, s.remaining + 1) } : s));
    },
  };
}
