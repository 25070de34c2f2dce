import { createHash } from "node:crypto";

/** docs/api.md "Event types and data": the SHA-256 lowercase-hex hash of a device fingerprint. The fingerprint itself is never stored or logged. */
export const fingerprintHash = (fingerprint: string) =>
  createHash("sha256").update(fingerprint, "utf8").digest("hex");
