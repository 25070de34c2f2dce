import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TTagUpdateRequest } from "./tag.schemas.ts";
import { tagInclude, toTagResponse } from "./tag-response.ts";
import { tagNameKey, tagNameTaken } from "./create-tag.ts";

/**
 * Merge-PATCH of a live tag. With `revisionNumber` the update applies only to that revision
 * (optimistic concurrency): a stale one answers 409 and changes nothing.
 */
export async function updateTag(ctx: DomainContext, id: string, input: TTagUpdateRequest) {
  const current = await ctx.db.tag.findUnique({ where: { id } });
  if (!current || current.isDeleted) throw notFound("Tag");
  const data = {
    ...(input.name != null ? { name: input.name, activeNameKey: tagNameKey(input.name) } : {}),
    ...(input.color != null ? { color: input.color } : {}),
    ...(input.clearColor ? { color: null } : {}),
  };
  try {
    const { count } = await ctx.db.tag.updateMany({
      where: {
        id,
        isDeleted: false,
        ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}),
      },
      data: { ...data, revisionNumber: { increment: 1 } },
    });
    if (count === 0) {
      throw new AppError(
        "concurrency.revision_mismatch",
        `The tag was changed since revision ${input.revisionNumber}; reload it and try again.`,
      );
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw tagNameTaken(current.scope, input.name ?? current.name);
    throw error;
  }
  const row = await ctx.db.tag.findUniqueOrThrow({ where: { id }, include: tagInclude });
  return toTagResponse(row);
}
