import type { TenantDbOrTx } from "../../../db/tenant-db.ts";

export type RecordTag = { id: string; name: string };

/**
 * The live tags of records with their registry ids, sorted by name as record responses sort them
 * (case-insensitively), for the portable items (names) and their references (ids).
 */
export async function recordTagRefs(
  db: TenantDbOrTx,
  recordIds: readonly string[],
): Promise<Map<string, RecordTag[]>> {
  const result = new Map<string, RecordTag[]>(recordIds.map((id) => [id, []]));
  if (!recordIds.length) return result;
  const rows = await db.tagAssignment.findMany({
    where: { recordId: { in: [...recordIds] }, tag: { isDeleted: false } },
    select: { recordId: true, tag: { select: { id: true, name: true } } },
  });
  rows.sort((a, b) => a.tag.name.localeCompare(b.tag.name, "en", { sensitivity: "base" }));
  for (const row of rows) result.get(row.recordId)?.push(row.tag);
  return result;
}
