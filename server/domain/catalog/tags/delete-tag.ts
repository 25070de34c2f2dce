import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";

/**
 * Soft delete: the tag leaves every record and its name becomes free for a new tag; the row
 * stays readable with `isDeleted: true`.
 */
export async function deleteTag(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const { count } = await tx.tag.updateMany({
      where: { id, isDeleted: false },
      data: { isDeleted: true, activeNameKey: null, revisionNumber: { increment: 1 } },
    });
    if (count === 0) throw notFound("Tag");
    await tx.tagAssignment.deleteMany({ where: { tagId: id } });
  });
}
