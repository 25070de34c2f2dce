import type { Db } from "../../db/client.ts";
import { now } from "../../clock.ts";
import { notFound } from "../../http/errors.ts";
import { createTenantSigningKey } from "./tenant-signing-keys.ts";

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
export async function rotateTenantSigningKey(db: Db, tenantId: string, options: { publishRetiredForMs?: number } = {}) {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Tenant" WHERE id = ${tenantId}::uuid FOR UPDATE`;
    if (locked.length === 0) throw notFound("Tenant");
    const at = now();
    await tx.signingKey.updateMany({
      where: { tenantId, status: "Active" },
      data: { status: "Retired", retiredAt: at, publishUntil: new Date(at.getTime() + (options.publishRetiredForMs ?? DEFAULT_PUBLISH_RETIRED_FOR_MS)) },
    });
    const key = await createTenantSigningKey(tx, tenantId);
    return { kid: key.kid, createdAt: key.createdAt.toISOString() };
  });
}
