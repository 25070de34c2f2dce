import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random credential: `<prefix>_` + base64url of `bytes` random bytes. */
export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

/**
 * Client secrets carry 256 bits of entropy, so a fast SHA-256 digest is as safe as a slow
 * password hash and keeps the token endpoint fast (a slow hash guards low-entropy passwords).
 */
export function hashSecret(secret: string): string {
  return `sha256:${createHash("sha256").update(secret, "utf8").digest("hex")}`;
}

export function verifySecret(secret: string, stored: string): boolean {
  const a = Buffer.from(hashSecret(secret));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}
