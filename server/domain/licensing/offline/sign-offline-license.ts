import { sign, type KeyObject } from "node:crypto";
import type { TOfflineLicense } from "./offline-artifact.schemas.ts";

/**
 * docs/api.md "Offline activation artifacts": signedPayload is the base64url (no padding) of the
 * license's UTF-8 JSON bytes; signature is base64 RSA-SHA256 (PKCS#1 v1.5) over the raw bytes of
 * the signedPayload string itself, so an importer verifies before decoding and never re-serializes.
 */
export function signOfflineLicense(
  license: TOfflineLicense,
  key: KeyObject,
): { signedPayload: string; signature: string } {
  const signedPayload = Buffer.from(JSON.stringify(license), "utf8").toString("base64url");
  const signature = sign("RSA-SHA256", Buffer.from(signedPayload, "utf8"), key).toString("base64");
  return { signedPayload, signature };
}

/** The kid a stored artifact was signed with, read back from its payload (the row keeps the bytes, not the kid). */
export function offlinePayloadKid(signedPayload: string): string {
  const license = JSON.parse(
    Buffer.from(signedPayload, "base64url").toString("utf8"),
  ) as Partial<TOfflineLicense>;
  if (typeof license.kid !== "string")
    throw new Error("A stored offline artifact has no kid in its payload.");
  return license.kid;
}
