import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { Prisma } from "../../../db/generated/client.ts";
import { tagInclude, toTagResponse } from "./tag-response.ts";

/**
 * docs/api.md tag merge: both tags in the same scope; every record carrying the source gains the
 * kept tag (a record that had both keeps one), and the source is deleted.
 */
export async function mergeTags(ctx: DomainContext, sourceId: string, intoTagId: string) {
  if (sourceId === intoTagId)
    throw new AppError("tag.merge_into_self", "A tag cannot be merged into itself.");
  return inTransaction(ctx.db, async (tx) => {
    // Lock both rows in id order so concurrent merges of the same pair cannot deadlock.
    const ids = [sourceId, intoTagId].sort();
    const locked = await tx.$queryRaw<{ id: string; scope: string; isDeleted: boolean }[]>`
      SELECT id, scope, "isDeleted" FROM "Tag"
      WHERE "tenantId" = ${ctx.tenantId}::uuid AND id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})
      ORDER BY id FOR UPDATE`;
    const source = locked.find((t) => t.id === sourceId);
    const kept = locked.find((t) => t.id === intoTagId);
    if (!source || source.isDeleted) throw notFound("Tag");
    if (!kept || kept.isDeleted) throw notFound("Tag to merge into");
    if (source.scope !== kept.scope) {
      throw new AppError(
        "tag.scope_mismatch",
        `Only tags of one scope merge: ${source.scope} into ${kept.scope} is refused.`,
      );
    }
    await tx.$executeRaw`
      INSERT INTO "TagAssignment" ("tenantId", "tagId", "recordId")
      SELECT "tenantId", ${intoTagId}::uuid, "recordId" FROM "TagAssignment"
      WHERE "tenantId" = ${ctx.tenantId}::uuid AND "tagId" = ${sourceId}::uuid
      ON CONFLICT DO NOTHING`;
    await tx.tagAssignment.deleteMany({ where: { tagId: sourceId } });
    await tx.tag.update({
      where: { id: sourceId },
      data: { isDeleted: true, activeNameKey: null, revisionNumber: { increment: 1 } },
    });
    return toTagResponse(await tx.tag.findUniqueOrThrow({ where: { id: intoTagId }, include: tagInclude }));
  });
}
