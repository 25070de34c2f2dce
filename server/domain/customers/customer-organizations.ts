import type { DomainContext } from "../context.ts";
import { inTransaction, type TenantTx } from "../../db/tenant-db.ts";
import { Prisma, type CustomerOrganization } from "../../db/generated/client.ts";
import { AppError, notFound, validationError } from "../../core/errors.ts";
import type { TListQuery } from "../../core/pagination.ts";
import { listPage } from "../../db/list-page.ts";
import type { SieveWhitelist } from "../../db/sieve-where.ts";
import { emitEvent } from "../webhooks/events/emit-event.ts";
import {
  ZCustomerOrganizationResponse,
  type TCustomerOrganizationCreateRequest,
  type TCustomerOrganizationUpdateRequest,
} from "./customer.schemas.ts";

export const customerOrganizationSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  name: { type: "string" },
  externalReference: { type: "string", nullable: true },
  parentId: { type: "uuid", nullable: true, sortable: false },
  organizationType: { type: "string" },
  emailDomain: { type: "string", nullable: true },
  country: { type: "string", nullable: true },
  origin: { type: "string" },
  createdAt: { type: "date" },
  updatedAt: { type: "date" },
};

export function toOrganizationResponse(row: CustomerOrganization) {
  return ZCustomerOrganizationResponse.parse({
    id: row.id,
    name: row.name,
    externalReference: row.externalReference,
    origin: row.origin,
    parentId: row.parentId,
    organizationType: row.organizationType,
    emailDomain: row.emailDomain,
    country: row.country,
    invoiceDetails: (row.invoiceDetails ?? null) as Record<string, string> | null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
}

/** The fields `Organization.Created`/`Updated` carry (docs/api.md: invoice details are omitted). */
const eventFields = [
  "externalReference",
  "parentId",
  "organizationType",
  "name",
  "emailDomain",
  "country",
] as const;
const orgData = (row: CustomerOrganization, origin: string) => ({
  id: row.id,
  externalReference: row.externalReference,
  origin,
  parentId: row.parentId,
  organizationType: row.organizationType,
  name: row.name,
  emailDomain: row.emailDomain,
  country: row.country,
});
const subject = (id: string) => ({
  entityKind: "organization",
  entityId: id,
  subject: `organizations/${id}`,
});

async function checkParent(tx: TenantTx, id: string | null | undefined, self?: string) {
  if (!id) return;
  if (id === self)
    throw validationError("An organization cannot be its own parent.", [
      { path: "parentId", message: "An organization cannot be its own parent." },
    ]);
  if (!(await tx.customerOrganization.findUnique({ where: { id }, select: { id: true } })))
    throw notFound(`Organization ${id}`);
}

export async function createCustomerOrganization(
  ctx: DomainContext,
  input: TCustomerOrganizationCreateRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    await checkParent(tx, input.parentId);
    const row = await tx.customerOrganization.create({
      data: {
        tenantId: ctx.tenantId,
        name: input.name,
        externalReference: input.externalReference,
        origin: input.origin,
        parentId: input.parentId,
        organizationType: input.organizationType,
        emailDomain: input.emailDomain,
        country: input.country,
        invoiceDetails: (input.invoiceDetails ?? undefined) as Prisma.InputJsonValue | undefined,
      },
    });
    await emitEvent(tx, {
      tenantId: ctx.tenantId,
      type: "Organization.Created",
      ...subject(row.id),
      data: orgData(row, input.origin),
    });
    return toOrganizationResponse(row);
  });
}

/** PATCH: `Organization.Updated` with changedFields (invoice-detail changes are saved but send nothing); no change, no event. */
export async function updateCustomerOrganization(
  ctx: DomainContext,
  id: string,
  input: TCustomerOrganizationUpdateRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    const [locked] = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM "CustomerOrganization" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (!locked) throw notFound("Organization");
    const before = await tx.customerOrganization.findUniqueOrThrow({ where: { id } });
    await checkParent(tx, input.parentId, id);
    const after = await tx.customerOrganization.update({
      where: { id },
      data: {
        name: input.name,
        externalReference: input.externalReference,
        parentId: input.parentId,
        organizationType: input.organizationType,
        emailDomain: input.emailDomain,
        country: input.country,
        ...(input.invoiceDetails !== undefined
          ? {
              invoiceDetails:
                input.invoiceDetails === null
                  ? Prisma.DbNull
                  : (input.invoiceDetails as Prisma.InputJsonValue),
            }
          : {}),
      },
    });
    const changedFields = eventFields.filter((f) => before[f] !== after[f]);
    if (changedFields.length)
      await emitEvent(tx, {
        tenantId: ctx.tenantId,
        type: "Organization.Updated",
        ...subject(id),
        data: { ...orgData(after, input.origin), changedFields },
      });
    return toOrganizationResponse(after);
  });
}

export async function deleteCustomerOrganization(
  ctx: DomainContext,
  id: string,
  origin = "admin",
): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const before = await tx.customerOrganization.findUnique({ where: { id } });
    if (!before) throw notFound("Organization");
    const [assigned, members] = await Promise.all([
      tx.entitlement.count({ where: { customerId: id, status: { not: "Archived" } } }),
      tx.customerUser.count({ where: { organizationIds: { has: id } } }),
    ]);
    if (assigned || members)
      throw new AppError(
        "customer.in_use",
        `The organization has ${assigned} entitlement(s) and ${members} member(s); move them first.`,
      );
    await tx.customerOrganization.delete({ where: { id } });
    await emitEvent(tx, {
      tenantId: ctx.tenantId,
      type: "Organization.Deleted",
      ...subject(id),
      data: { organizationId: id, externalReference: before.externalReference, origin },
    });
  });
}

export async function getCustomerOrganization(ctx: DomainContext, id: string) {
  const row = await ctx.db.customerOrganization.findUnique({ where: { id } });
  if (!row) throw notFound("Organization");
  return toOrganizationResponse(row);
}

export async function listCustomerOrganizations(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: customerOrganizationSieve,
      defaultOrder: [{ name: "asc" }],
      findMany: (args) => ctx.db.customerOrganization.findMany(args),
      count: (args) => ctx.db.customerOrganization.count(args),
    },
    (rows) => rows.map(toOrganizationResponse),
  );
}
