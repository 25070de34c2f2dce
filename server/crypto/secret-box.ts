import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { appSecret } from "../config.ts";

let derived: { secret: string; key: Buffer } | undefined;

/**
 * AES-256-GCM encryption of data at rest (private signing keys, stored idempotent responses),
 * keyed from APP_SECRET through HKDF. Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 * The derived key is kept while APP_SECRET stays the same (sealing runs on every keyed request).
 */
function key(): Buffer {
  const secret = appSecret();
  if (derived?.secret !== secret)
    derived = { secret, key: Buffer.from(hkdfSync("sha256", secret, "licensing-secret-box", "v1", 32)) };
  return derived.key;
}

export function seal(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function open(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined)
    throw new Error("Unrecognised sealed value.");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}
