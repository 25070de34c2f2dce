import { randomUUID } from "node:crypto";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { setRecordTags } from "../../server/domain/catalog/tags/record-tags.ts";
import { updateTag } from "../../server/domain/catalog/tags/update-tag.ts";
import type { TTagScope } from "../../server/domain/catalog/tags/tag.schemas.ts";
import type { E2eState } from "./state.ts";
import { systemContext, type DomainContext } from "../../server/domain/context.ts";
import { createEntitlement } from "../../server/domain/entitlements/entitlement/create-entitlement.ts";
import { ZEntitlementCreateRequest } from "../../server/domain/entitlements/entitlement/entitlement.schemas.ts";
import { createCustomerUser } from "../../server/domain/customers/customer-users.ts";
import { ZCustomerUserCreateRequest } from "../../server/domain/customers/customer.schemas.ts";

/**
 * Writes that the UI cannot make yet (no product screens exist to put tags on records) or that
 * stand for another user's concurrent edit; made through the domain functions, as fixtures are.
 */
export async function withTenantDb<T>(
  state: E2eState,
  fn: (db: ReturnType<typeof tenantDb>) => Promise<T>,
): Promise<T> {
  const base = createDb(state.databaseUrl, { max: 1 });
  try {
    return await fn(tenantDb(base, state.tenantId));
  } finally {
    await base.$disconnect();
  }
}

/** Tags new records (fresh ids) with the given tag names; returns the record ids. */
export async function tagRecords(state: E2eState, scope: TTagScope, records: string[][]): Promise<string[]> {
  return withTenantDb(state, async (db) => {
    const ids: string[] = [];
    for (const names of records) {
      const id = randomUUID();
      await setRecordTags(db, state.tenantId, scope, id, names);
      ids.push(id);
    }
    return ids;
  });
}

/** Another staff user's edit of a tag, made while this one has it open. */
export async function recolourTagElsewhere(state: E2eState, scope: TTagScope, name: string, color: string) {
  await withTenantDb(state, async (db) => {
    const tag = await db.tag.findFirstOrThrow({ where: { scope, name, isDeleted: false } });
    await updateTag({ tenantId: state.tenantId, actor: { kind: "system", id: "e2e" }, db }, tag.id, {
      color,
    });
  });
}

/** Runs `fn` with a domain context of the e2e tenant (systemContext), for fixtures made as the API makes them. */
export async function withTenantContext<T>(
  state: E2eState,
  fn: (ctx: DomainContext) => Promise<T>,
): Promise<T> {
  const base = createDb(state.databaseUrl, { max: 1 });
  try {
    return await fn(systemContext(base, state.tenantId, "e2e"));
  } finally {
    await base.$disconnect();
  }
}

/** An entitlement made by the entitlement domain function (Published unless told). */
export async function seedEntitlement(ctx: DomainContext, fields: Record<string, unknown>) {
  return createEntitlement(ctx, ZEntitlementCreateRequest.parse(fields));
}

/** The consumer's CustomerUser (what entitlements are assigned to), made by the customers domain. */
export async function seedConsumerCustomer(ctx: DomainContext, email: string) {
  const user = await ctx.db.user.findFirstOrThrow({ where: { email } });
  return createCustomerUser(
    ctx,
    ZCustomerUserCreateRequest.parse({ userId: user.id, email: user.email, roles: [] }),
  );
}
