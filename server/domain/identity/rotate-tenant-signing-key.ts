import { joinable } from "../../db/tenant-db.ts";
import type { Db } from "../../db/client.ts";
import { now } from "../../clock.ts";
import { notFound } from "../../core/errors.ts";
import { createTenantSigningKey, generateTenantSigningKey } from "./tenant-signing-keys.ts";

/**
 * How long a retired key stays in the JWKS. It must outlive every token the key signed: a license
 * token lives one lease (default 1 hour) and an offline artifact is verified at import, so a week
 * leaves room for any lease a vendor configures. Overridable per rotation.
 */
export const DEFAULT_PUBLISH_RETIRED_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Key rotation: a new key signs from now on; the keys it replaces are retired but stay published
 * until `publishUntil`. One transaction, under a lock on the tenant row, so two rotations at once
 * never leave two active keys.
 */
export async function rotateTenantSigningKey(
  db: Db,
  tenantId: string,
  options: { publishRetiredForMs?: number } = {},
) {
  // The key is generated before the transaction: the tenant row stays locked for milliseconds.
  const material = await generateTenantSigningKey();
  return db.$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
    const locked = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM "Tenant" WHERE id = ${tenantId}::uuid FOR UPDATE`;
    if (locked.length === 0) throw notFound("Tenant");
    const at = now();
    // A token lives as long as its lease: the retired key stays published at least until the
    // longest running lease ends, so no issued token stops verifying because of the rotation.
    const { _max } = await tx.licenseSession.aggregate({
      where: { tenantId, revokedAt: null, activationKind: "Online" },
      _max: { leaseExpiresAt: true },
    });
    const publishUntil = Math.max(
      at.getTime() + (options.publishRetiredForMs ?? DEFAULT_PUBLISH_RETIRED_FOR_MS),
      _max.leaseExpiresAt?.getTime() ?? 0,
    );
    await tx.signingKey.updateMany({
      where: { tenantId, status: "Active" },
      data: { status: "Retired", retiredAt: at, publishUntil: new Date(publishUntil) },
    });
    const key = await createTenantSigningKey(tx, tenantId, material);
    return { kid: key.kid, createdAt: key.createdAt.toISOString() };
  });
}
