// What both bare baseline servers (same-work: baseline-server.ts; minimal-work:
// minimal-baseline-server.ts) do as our license routes do: sign a license token with the tenant's
// key, read a request body, and verify a presented token once per process (its lifetime at every use).
import { createPrivateKey, createPublicKey, randomUUID, type KeyObject } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { jwtVerify, SignJWT, type JWTPayload } from "jose";

export function licenseKeys(tenant: { tenantId: string; kid: string; privateJwk: unknown }) {
  const privateKey: KeyObject = createPrivateKey({ key: tenant.privateJwk as never, format: "jwk" });
  const publicKey = createPublicKey(privateKey);
  const verifiedTokens = new Map<string, JWTPayload>();
  return {
    sign(claims: JWTPayload, sub: string): Promise<string> {
      const issuedAt = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims, grace_exp: issuedAt + 86_400 })
        .setProtectedHeader({ alg: "RS256", kid: tenant.kid, typ: "JWT" })
        .setIssuer(`urn:licensing:tenant:${tenant.tenantId}`)
        .setAudience("license")
        .setSubject(sub)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + 3600)
        .setJti(randomUUID())
        .sign(privateKey);
    },
    async verified(req: IncomingMessage): Promise<JWTPayload> {
      const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const known = verifiedTokens.get(token);
      if (known && known.exp! > Math.floor(Date.now() / 1000)) return known;
      const { payload } = await jwtVerify(token, publicKey, { audience: "license", algorithms: ["RS256"] });
      verifiedTokens.set(token, payload);
      return payload;
    },
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
