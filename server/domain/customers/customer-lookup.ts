import type { TenantDbOrTx } from "../../db/tenant-db.ts";
import { notFound } from "../../core/errors.ts";

export type CustomerRef = { id: string; kind: "User" | "Organization"; externalReference: string | null };

/** A customer (user or organization) of the tenant by id; 404 when it is neither. */
export async function resolveCustomer(db: TenantDbOrTx, id: string): Promise<CustomerRef> {
  const [user, organization] = await Promise.all([
    db.customerUser.findUnique({ where: { id }, select: { id: true, externalReference: true } }),
    db.customerOrganization.findUnique({ where: { id }, select: { id: true, externalReference: true } }),
  ]);
  if (user) return { id: user.id, kind: "User", externalReference: user.externalReference };
  if (organization)
    return { id: organization.id, kind: "Organization", externalReference: organization.externalReference };
  throw notFound(`Customer ${id}`);
}
