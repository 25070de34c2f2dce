import { createPublicKey, randomBytes, verify, type JsonWebKey } from "node:crypto";

/** A request artifact as an air-gapped SDK writes it (docs/api.md "Offline activation artifacts"). */
export function offlineRequestArtifact(
  activationCode: string,
  fingerprint: string,
  options: { requestedAt?: string; components?: Record<string, string> | null; nonce?: string } = {},
) {
  return {
    meta: {
      schemaVersion: 1,
      nonce: options.nonce ?? randomBytes(32).toString("base64url"),
      requestedAt: options.requestedAt ?? new Date().toISOString(),
      sdkVersion: "test-sdk/1.0.0",
    },
    body: {
      activationCode,
      fingerprint,
      applicationInfo: {
        applicationName: "Test app",
        installedApplicationVersion: "1.2.3",
        applicationInstanceName: "bench",
        applicationScope: null,
      },
      components: options.components ?? null,
      attestation: null,
    },
  };
}

export type OfflineResponseArtifact = { signedPayload: string; signature: string; kid: string };

/** Verifies a response artifact against a JWKS the way an importer does: the signature over the raw signedPayload bytes, then decode. */
export function verifyOfflineResponse(
  jwks: { keys: (JsonWebKey & { kid?: string })[] },
  artifact: OfflineResponseArtifact,
) {
  const jwk = jwks.keys.find((k) => k.kid === artifact.kid);
  if (!jwk) return { verified: false as const, license: null };
  const verified = verify(
    "RSA-SHA256",
    Buffer.from(artifact.signedPayload, "utf8"),
    createPublicKey({ key: jwk, format: "jwk" }),
    Buffer.from(artifact.signature, "base64"),
  );
  return {
    verified,
    license: verified ? JSON.parse(Buffer.from(artifact.signedPayload, "base64url").toString("utf8")) : null,
  };
}
