import type { TenantTx } from "../../../db/tenant-db.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { productsByIds } from "../../catalog/pricing-lookups.ts";

/**
 * docs/api.md: the suite auto-created behind a product the first time it is priced. Returns the
 * product's implicit suite, creating it (with the product as its only member) when there is none:
 * pricing the product again lands in the same suite while it is still implicit. The unique
 * (tenantId, implicitProductId) index makes two concurrent first pricings create one suite.
 */
export async function ensureImplicitSuite(
  tx: TenantTx,
  tenantId: string,
  productId: string,
): Promise<string> {
  const product = (await productsByIds(tx, [productId])).get(productId);
  if (!product || product.isDeleted) throw notFound("Product");
  const timestamp = now();
  const base = product.productVersion
    ? `${product.productCode}@${product.productVersion}`
    : product.productCode;
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "Suite" (id, "tenantId", code, name, description, "isImplicit", "implicitProductId", "createdAt", "updatedAt")
    SELECT gen_random_uuid(), ${tenantId}::uuid,
           -- the product's code, or code~2, code~3... when an explicit suite already uses it
           (SELECT candidate FROM (
              SELECT ${base}::text AS candidate, 0 AS n
              UNION ALL SELECT ${base}::text || '~' || g, g FROM generate_series(2, 1000) AS g
            ) c WHERE NOT EXISTS (SELECT 1 FROM "Suite" s WHERE s."tenantId" = ${tenantId}::uuid AND s.code = c.candidate)
            ORDER BY n LIMIT 1),
           ${product.name}, '', true, ${productId}::uuid, ${timestamp}, ${timestamp}
    ON CONFLICT ("tenantId", "implicitProductId") DO NOTHING
    RETURNING id`;
  if (inserted.length) {
    await tx.suiteMember.create({ data: { tenantId, suiteId: inserted[0].id, productId, sortOrder: 1 } });
    return inserted[0].id;
  }
  const existing = await tx.suite.findUniqueOrThrow({
    where: { tenantId_implicitProductId: { tenantId, implicitProductId: productId } },
    select: { id: true },
  });
  return existing.id;
}
