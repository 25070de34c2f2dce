import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { TTagScope } from "./tag.schemas.ts";
import { tagNameKey } from "./create-tag.ts";

/**
 * docs/api.md "tags on records", shared by every resource that carries tags: `null`/absent leaves
 * the record's tags unchanged, `[]` clears them, a list replaces the set, and names the registry
 * does not know (case-insensitively, among live tags of the scope) are created.
 * Call it inside the transaction that writes the record.
 */
export async function setRecordTags(
  db: TenantDbOrTx,
  tenantId: string,
  scope: TTagScope,
  recordId: string,
  names: readonly string[] | null | undefined,
): Promise<void> {
  if (names == null) return;
  const wanted = new Map<string, string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed && !wanted.has(tagNameKey(trimmed))) wanted.set(tagNameKey(trimmed), trimmed);
  }
  if (wanted.size > 0) {
    // skipDuplicates lets two writers create the same new name at once without failing.
    await db.tag.createMany({
      data: [...wanted].map(([key, name]) => ({ tenantId, scope, name, activeNameKey: key })),
      skipDuplicates: true,
    });
  }
  const tags = wanted.size
    ? await db.tag.findMany({
        where: { scope, activeNameKey: { in: [...wanted.keys()] } },
        select: { id: true },
      })
    : [];
  const tagIds = tags.map((t) => t.id);
  await db.tagAssignment.deleteMany({
    where: { recordId, tag: { scope }, ...(tagIds.length ? { tagId: { notIn: tagIds } } : {}) },
  });
  if (tagIds.length) {
    await db.tagAssignment.createMany({
      data: tagIds.map((tagId) => ({ tenantId, tagId, recordId })),
      skipDuplicates: true,
    });
  }
}

/** Tag names per record, sorted by name, for the records' responses. */
export async function readRecordTags(
  db: TenantDbOrTx,
  recordIds: readonly string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(recordIds.map((id) => [id, []]));
  if (!recordIds.length) return result;
  const rows = await db.tagAssignment.findMany({
    where: { recordId: { in: [...recordIds] }, tag: { isDeleted: false } },
    select: { recordId: true, tag: { select: { name: true } } },
  });
  // Sorted here, case-insensitively, so the order does not depend on the database's collation.
  rows.sort((a, b) => a.tag.name.localeCompare(b.tag.name, "en", { sensitivity: "base" }));
  for (const row of rows) result.get(row.recordId)?.push(row.tag.name);
  return result;
}

/** Removes every tag from a record that is being deleted. */
export async function clearRecordTags(db: TenantDbOrTx, recordId: string): Promise<void> {
  await db.tagAssignment.deleteMany({ where: { recordId } });
}
