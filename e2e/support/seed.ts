import { randomUUID } from "node:crypto";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { setRecordTags } from "../../server/domain/catalog/record-tags.ts";
import { updateTag } from "../../server/domain/catalog/update-tag.ts";
import type { TTagScope } from "../../server/domain/catalog/tag.schemas.ts";
import type { E2eState } from "./state.ts";

/**
 * Writes that the UI cannot make yet (no product screens exist to put tags on records) or that
 * stand for another user's concurrent edit; made through the domain functions, as fixtures are.
 */
export async function withTenantDb<T>(state: E2eState, fn: (db: ReturnType<typeof tenantDb>) => Promise<T>): Promise<T> {
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
    await updateTag({ tenantId: state.tenantId, actor: { kind: "system", id: "e2e" }, db }, tag.id, { color });
  });
}
