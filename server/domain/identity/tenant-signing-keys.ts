import { exportJWK, generateKeyPair } from "jose";
import type { Prisma } from "../../db/generated/client.ts";
import { seal } from "../../crypto/secret-box.ts";

export const LICENSE_ALG = "RS256";

/**
 * Creates a tenant's RSA-2048 key that signs license tokens and offline artifacts. Its public
 * half is published in the tenant's JWKS.
 */
export async function createTenantSigningKey(tx: Prisma.TransactionClient, tenantId: string) {
  const { privateKey, publicKey } = await generateKeyPair(LICENSE_ALG, { modulusLength: 2048, extractable: true });
  const kid = `lk_${crypto.randomUUID()}`;
  return tx.signingKey.create({
    data: {
      tenantId,
      kid,
      algorithm: LICENSE_ALG,
      status: "Active",
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: LICENSE_ALG, use: "sig" },
      privateKeyEncrypted: seal(JSON.stringify(await exportJWK(privateKey))),
    },
  });
}
