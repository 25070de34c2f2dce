import type { DomainContext } from "../context.ts";
import { inTransaction } from "../../db/tenant-db.ts";
import { AppError, notFound } from "../../core/errors.ts";
import type { TListQuery } from "../../core/pagination.ts";
import { listPage } from "../../db/list-page.ts";
import type { SieveWhitelist } from "../../db/sieve-where.ts";
import type { TCustomerUserCreateRequest, TCustomerUserUpdateRequest } from "./customer.schemas.ts";
import { emitUserChange, toCustomerUserResponse } from "./customer-user-events.ts";
import { issueOnUserRegistration } from "../entitlements/registration/issue-on-registration.ts";

export const customerUserSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  email: { type: "string", nullable: true },
  firstName: { type: "string", nullable: true },
  lastName: { type: "string", nullable: true },
  externalReference: { type: "string", nullable: true },
  userType: { type: "enum", values: ["Consumer", "Device"] },
  origin: { type: "string" },
  isApproved: { type: "boolean" },
  isBlocked: { type: "boolean" },
  organizationId: {
    type: "uuid",
    sortable: false,
    toWhere: (op, value) => {
      const has = { organizationIds: { has: value?.toLowerCase() ?? "" } };
      return op === "==" ? has : { NOT: has };
    },
  },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
};

async function checkOrganizations(db: DomainContext["db"], ids: readonly string[]) {
  if (!ids.length) return;
  const found = await db.customerOrganization.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true },
  });
  const missing = ids.find((id) => !found.some((f) => f.id === id));
  if (missing) throw notFound(`Organization ${missing}`);
}

/** POST /admin/customers/users: emits `User.Created` when the user is a customer. */
export async function createCustomerUser(ctx: DomainContext, input: TCustomerUserCreateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    await checkOrganizations(tx, input.organizationIds);
    const row = await tx.customerUser.create({
      data: {
        tenantId: ctx.tenantId,
        userId: input.userId,
        externalReference: input.externalReference,
        origin: input.origin,
        userType: input.userType,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        roles: input.roles,
        organizationIds: input.organizationIds,
        isApproved: input.isApproved,
        isBlocked: input.isBlocked,
      },
    });
    await emitUserChange(tx, ctx.tenantId, null, row, input.origin);
    await issueOnUserRegistration({ ...ctx, db: tx }, row, input.anonymousTryId);
    return toCustomerUserResponse(row);
  });
}

/** PATCH /admin/customers/users/{id}: `User.Updated` with changedFields, or Created/Deleted when customer-ness changes; nothing when nothing changed. */
export async function updateCustomerUser(ctx: DomainContext, id: string, input: TCustomerUserUpdateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const [locked] = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM "CustomerUser" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (!locked) throw notFound("Customer user");
    const before = await tx.customerUser.findUniqueOrThrow({ where: { id } });
    if (input.organizationIds) await checkOrganizations(tx, input.organizationIds);
    const data = {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      externalReference: input.externalReference,
      userType: input.userType,
      roles: input.roles,
      organizationIds: input.organizationIds,
      isApproved: input.isApproved,
      isBlocked: input.isBlocked,
      userId: input.userId,
    };
    const changed = Object.entries(data).some(
      ([k, v]) => v !== undefined && JSON.stringify(v) !== JSON.stringify(before[k as keyof typeof before]),
    );
    if (!changed) return toCustomerUserResponse(before);
    const after = await tx.customerUser.update({ where: { id }, data });
    await emitUserChange(tx, ctx.tenantId, before, after, input.origin);
    return toCustomerUserResponse(after);
  });
}

/** DELETE /admin/customers/users/{id}: `User.Deleted` if it was a customer; refused while an entitlement is assigned to it. */
export async function deleteCustomerUser(ctx: DomainContext, id: string, origin = "admin"): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const before = await tx.customerUser.findUnique({ where: { id } });
    if (!before) throw notFound("Customer user");
    const assigned = await tx.entitlement.count({ where: { customerId: id, status: { not: "Archived" } } });
    if (assigned)
      throw new AppError(
        "customer.in_use",
        `${assigned} entitlement(s) are assigned to this user; reassign them first.`,
      );
    await tx.customerUser.delete({ where: { id } });
    await emitUserChange(tx, ctx.tenantId, before, null, origin);
  });
}

export async function getCustomerUser(ctx: DomainContext, id: string) {
  const row = await ctx.db.customerUser.findUnique({ where: { id } });
  if (!row) throw notFound("Customer user");
  return toCustomerUserResponse(row);
}

export async function listCustomerUsers(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: customerUserSieve,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.customerUser.findMany(args),
      count: (args) => ctx.db.customerUser.count(args),
    },
    (rows) => rows.map(toCustomerUserResponse),
  );
}
