import { exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { Db } from "../../db/client.ts";
import { open, seal } from "../../crypto/secret-box.ts";

type LoadedKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey };

export const PLATFORM_ALG = "EdDSA";
const cache = new Map<string, Promise<LoadedKey | null>>();
let signingKey: Promise<LoadedKey> | null = null;

async function load(row: {
  kid: string;
  publicJwk: unknown;
  privateKeyEncrypted: string;
}): Promise<LoadedKey> {
  const privateJwk = JSON.parse(open(row.privateKeyEncrypted)) as JWK;
  return {
    kid: row.kid,
    privateKey: (await importJWK(privateJwk, PLATFORM_ALG)) as CryptoKey,
    publicKey: (await importJWK(row.publicJwk as JWK, PLATFORM_ALG)) as CryptoKey,
  };
}

/**
 * The service's own token-signing key (Ed25519), kept in the database so every web process
 * signs and verifies with the same key. Created on first use; cached per process (keys are
 * immutable, looked up by kid).
 */
export function platformSigningKey(db: Db): Promise<LoadedKey> {
  signingKey ??= (async () => {
    const existing = await db.platformKey.findFirst({
      where: { purpose: "access-token" },
      orderBy: { createdAt: "desc" },
    });
    if (existing) return load(existing);
    const { privateKey, publicKey } = await generateKeyPair(PLATFORM_ALG, {
      extractable: true,
      crv: "Ed25519",
    });
    const kid = `pk_${crypto.randomUUID()}`;
    const row = await db.platformKey.create({
      data: {
        purpose: "access-token",
        kid,
        algorithm: PLATFORM_ALG,
        publicJwk: { ...(await exportJWK(publicKey)), kid, alg: PLATFORM_ALG },
        privateKeyEncrypted: seal(JSON.stringify(await exportJWK(privateKey))),
      },
    });
    return load(row);
  })().catch((error) => {
    signingKey = null;
    throw error;
  });
  return signingKey;
}

export function platformVerificationKey(db: Db, kid: string): Promise<LoadedKey | null> {
  let entry = cache.get(kid);
  if (!entry) {
    entry = db.platformKey.findUnique({ where: { kid } }).then((row) => (row ? load(row) : null));
    cache.set(kid, entry);
    // An unknown kid is not cached for long, so a key created by another process is found later.
    entry.then(
      (key) => {
        if (!key) setTimeout(() => cache.delete(kid), 5_000).unref();
      },
      () => cache.delete(kid),
    );
  }
  return entry;
}
