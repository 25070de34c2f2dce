import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "../../../core/errors.ts";

/**
 * docs/api.md "Subscriptions" and "Signing" (the Standard Webhooks scheme): a secret is `whsec_` + base64 of
 * 24 to 64 random bytes; the HMAC key is the decoded bytes; the signed content is
 * `{webhook-id}.{webhook-timestamp}.{raw body}`; a signature is `v1,` + base64 HMAC-SHA256.
 */

export const SECRET_PREFIX = "whsec_";
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
const GENERATED_SECRET_BYTES = 32;

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(GENERATED_SECRET_BYTES).toString("base64")}`;
}

/** The HMAC key of a secret, or null when the text is not a valid secret. */
export function signingKey(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const key = Buffer.from(encoded, "base64");
  // Canonical base64 only: a text that does not re-encode to itself hides stray bits.
  if (key.toString("base64") !== encoded) return null;
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES) return null;
  return key;
}

/** A caller-supplied secret, refused (400 subscription.invalid_secret) unless well-formed. */
export function validateSigningSecret(secret: string): string {
  if (!signingKey(secret)) {
    throw new AppError(
      "subscription.invalid_secret",
      `A signing secret is ${SECRET_PREFIX} followed by standard base64 of ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} random bytes.`,
      { issues: [{ path: "body.secret", message: "malformed signing secret" }] },
    );
  }
  return secret;
}

export function signatureOf(key: Buffer, webhookId: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", key).update(`${webhookId}.${timestamp}.${body}`, "utf8").digest("base64")}`;
}

/** The `webhook-signature` value: one signature per live secret, space-separated (rotation). */
export function signatureHeader(
  secrets: readonly string[],
  webhookId: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => signingKey(secret))
    .filter((key): key is Buffer => key !== null)
    .map((key) => signatureOf(key, webhookId, timestamp, body))
    .join(" ");
}

/** Whether any `v1,` signature of a header matches any of the secrets (constant-time compare). */
export function signatureMatches(
  secrets: readonly string[],
  webhookId: string,
  timestamp: number,
  body: string,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const given = header
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s));
  for (const secret of secrets) {
    const key = signingKey(secret);
    if (!key) continue;
    const expected = Buffer.from(signatureOf(key, webhookId, timestamp, body));
    if (
      given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))
    )
      return true;
  }
  return false;
}
