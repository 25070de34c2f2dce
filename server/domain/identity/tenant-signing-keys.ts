import { exportJWK, generateKeyPair } from "jose";
import type { Prisma } from "../../db/generated/client.ts";
import { seal } from "../../crypto/secret-box.ts";

export const LICENSE_ALG = "RS256";

/** A new RSA-2048 key, sealed for storage: generated before a transaction opens (it takes a while on a busy machine). */
export async function generateTenantSigningKey() {
  const { privateKey, publicKey } = await generateKeyPair(LICENSE_ALG, {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = `lk_${crypto.randomUUID()}`;
  return {
    kid,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: LICENSE_ALG, use: "sig" },
    privateKeyEncrypted: seal(JSON.stringify(await exportJWK(privateKey))),
  };
}

/**
 * Stores a tenant's RSA-2048 key that signs license tokens and offline artifacts (generated here
 * unless the caller generated it before its transaction). Its public half is published in the
 * tenant's JWKS.
 */
export async function createTenantSigningKey(
  tx: Prisma.TransactionClient,
  tenantId: string,
  material?: Awaited<ReturnType<typeof generateTenantSigningKey>>,
) {
  const { kid, publicJwk, privateKeyEncrypted } = material ?? (await generateTenantSigningKey());
  return tx.signingKey.create({
    data: { tenantId, kid, algorithm: LICENSE_ALG, status: "Active", publicJwk, privateKeyEncrypted },
  });
}
