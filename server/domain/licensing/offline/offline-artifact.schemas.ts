import { z } from "zod";
import { ZApplicationInfo, ZComponents } from "../activation/activation.schemas.ts";

/** docs/api.md "Versioning" item 2: the only offline artifact version this service reads and writes. */
export const OFFLINE_SCHEMA_VERSION = 1;

/** docs/api.md "Limits": the nonce is 32 random bytes, base64url without padding (43 characters). */
const NONCE_BYTES = 32;
export const ZOfflineNonce = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{43}$/,
    "The nonce is 32 random bytes, base64url without padding (43 characters of A-Z a-z 0-9 - _).",
  )
  .refine((s) => {
    const bytes = Buffer.from(s, "base64url");
    // Canonical encoding only: the last character's unused bits must be zero.
    return bytes.length === NONCE_BYTES && bytes.toString("base64url") === s;
  }, "The nonce does not decode to exactly 32 bytes.");

export const ZOfflineAttestation = z.object({
  fingerprint: z.string().max(4096).nullable().optional(),
  x5c: z.array(z.string().min(1).max(16_384)).max(10).nullable().optional(),
});

/**
 * docs/api.md "Offline activation artifacts", the request artifact. The top level is exactly
 * `{ meta, body }`; inside them unknown fields are ignored, because docs/api.md "Versioning" adds new
 * optional fields within the same schemaVersion (docs/decisions.md "Offline activation").
 */
export const ZOfflineActivationRequest = z.strictObject({
  meta: z.object({
    schemaVersion: z.literal(OFFLINE_SCHEMA_VERSION, {
      error: `Unknown schemaVersion: this service reads offline artifacts of version ${OFFLINE_SCHEMA_VERSION}.`,
    }),
    nonce: ZOfflineNonce,
    requestedAt: z.iso.datetime({
      offset: true,
      error: "requestedAt must be an ISO 8601 date-time with a time zone.",
    }),
    sdkVersion: z.string().max(200).nullable().optional(),
  }),
  body: z.object({
    activationCode: z.string().trim().min(1, "An activation code is required.").max(200),
    fingerprint: z.string().min(1, "A device fingerprint is required.").max(4096),
    applicationInfo: ZApplicationInfo.nullable().optional(),
    components: ZComponents.nullable().optional(),
    attestation: ZOfflineAttestation.nullable().optional(),
  }),
});
export type TOfflineActivationRequest = z.infer<typeof ZOfflineActivationRequest>;

/**
 * docs/api.md's response artifact: `signedPayload` (base64url of the UTF-8 JSON of the end-user
 * license) and `signature` (base64 RSA-SHA256 PKCS#1 v1.5 over the raw bytes of signedPayload).
 * `kid` is ours: the tenant JWKS key that verifies the signature.
 */
export const ZOfflineActivationResponse = z.object({
  signedPayload: z.string(),
  signature: z.string(),
  kid: z.string(),
});
export type TOfflineActivationResponse = z.infer<typeof ZOfflineActivationResponse>;

/** The end-user license inside signedPayload (what an offline client reads after verifying). */
export type TOfflineLicense = {
  schemaVersion: typeof OFFLINE_SCHEMA_VERSION;
  nonce: string;
  requestedAt: string;
  issuedAt: string;
  issuer: string;
  kid: string;
  licenseId: string;
  sessionId: string;
  tenantId: string;
  entitlementId: string;
  entitlementName: string;
  state: "Active" | "Trial" | "Grace";
  isFloatingLicense: boolean;
  expirationDateTime: string | null;
  leaseExpiresAt: string;
  graceExpiresAt: string;
  deviceFingerprintHash: string;
  componentMatchingStrategy: string;
  components: Record<string, string> | null;
  products: { id: string; productCode: string; productVersion: string; name: string }[];
  features: Record<string, string | boolean>;
};
