import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { now } from "../../clock.ts";
import { notFound } from "../../core/errors.ts";

export const ZJwksParams = z.object({ tenantId: z.string().uuid() });

export const ZPublicJwk = z.object({
  kty: z.literal("RSA"),
  kid: z.string(),
  alg: z.string(),
  use: z.literal("sig"),
  n: z.string(),
  e: z.string(),
});
export const ZJwks = z.object({ keys: z.array(ZPublicJwk) });
export type TJwks = z.infer<typeof ZJwks>;

/**
 * The tenant's JSON Web Key Set: the public halves of the key that signs license tokens and
 * offline artifacts now, and of retired keys until the last token they signed has expired, so a
 * shipped application verifies offline across a rotation. Anonymous; an unknown tenant is 404.
 */
export async function tenantJwks(db: Db, tenantId: string): Promise<TJwks> {
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw notFound("Tenant");
  const keys = await db.signingKey.findMany({
    where: { tenantId, OR: [{ status: "Active" }, { status: "Retired", publishUntil: { gt: now() } }] },
    orderBy: { createdAt: "desc" },
  });
  // Parsing through the public-key schema keeps any private member out of the answer.
  return ZJwks.parse({ keys: keys.map((k) => k.publicJwk) });
}
