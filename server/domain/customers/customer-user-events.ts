import type { TenantTx } from "../../db/tenant-db.ts";
import type { CustomerUser } from "../../db/generated/client.ts";
import { emitEvent } from "../webhooks/events/emit-event.ts";
import {
  LICENSE_CONSUMER_ROLE,
  ZCustomerUserResponse,
  type TCustomerUserResponse,
} from "./customer.schemas.ts";

/**
 * docs/api.md Rules: `User.*` events describe customers only: devices, organization members, and
 * users whose only role is license consumer. Anyone else (a user given a vendor role) is not.
 */
export function isCustomer(user: Pick<CustomerUser, "userType" | "organizationIds" | "roles">): boolean {
  return (
    user.userType === "Device" ||
    user.organizationIds.length > 0 ||
    user.roles.every((r) => r === LICENSE_CONSUMER_ROLE)
  );
}

export function toCustomerUserResponse(row: CustomerUser): TCustomerUserResponse {
  return ZCustomerUserResponse.parse({
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    externalReference: row.externalReference,
    origin: row.origin,
    userType: row.userType,
    roles: row.roles,
    organizationIds: row.organizationIds,
    isApproved: row.isApproved,
    isBlocked: row.isBlocked,
    userId: row.userId,
    isCustomer: isCustomer(row),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
}

/** The fields `User.Created`/`User.Updated` carry; changedFields name these. */
export const userEventFields = [
  "externalReference",
  "userType",
  "email",
  "firstName",
  "lastName",
  "roles",
  "organizationIds",
  "isApproved",
  "isBlocked",
] as const;

const userData = (row: CustomerUser, origin: string) => ({
  id: row.id,
  externalReference: row.externalReference,
  origin,
  userType: row.userType as "Consumer" | "Device",
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  roles: row.roles,
  organizationIds: row.organizationIds,
  isApproved: row.isApproved,
  isBlocked: row.isBlocked,
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Emits what a change of a customer user means (docs/api.md Rules): becoming a customer → Created;
 * stopping → Deleted; staying one with event fields changed → Updated with changedFields; a save
 * that changes nothing → nothing. `before` null = created, `after` null = removed.
 */
export async function emitUserChange(
  tx: TenantTx,
  tenantId: string,
  before: CustomerUser | null,
  after: CustomerUser | null,
  origin: string,
): Promise<void> {
  const was = before !== null && isCustomer(before);
  const is = after !== null && isCustomer(after);
  const subject = `users/${(after ?? before)!.id}`;
  const base = { tenantId, entityKind: "user", entityId: (after ?? before)!.id, subject };
  if (!was && is) {
    await emitEvent(tx, { ...base, type: "User.Created", data: userData(after!, origin) });
  } else if (was && !is) {
    const row = before!;
    await emitEvent(tx, {
      ...base,
      type: "User.Deleted",
      data: { userId: row.id, externalReference: row.externalReference, origin, userType: row.userType },
    });
  } else if (was && is) {
    const changedFields = userEventFields.filter((f) => !same(before![f], after![f]));
    if (changedFields.length)
      await emitEvent(tx, {
        ...base,
        type: "User.Updated",
        data: { ...userData(after!, origin), changedFields },
      });
  }
}
