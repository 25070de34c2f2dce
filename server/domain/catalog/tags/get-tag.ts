import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { tagInclude, toTagResponse } from "./tag-response.ts";

/** A tag by id, including a soft-deleted one (it reads `isDeleted: true`). */
export async function getTag(ctx: DomainContext, id: string) {
  const row = await ctx.db.tag.findUnique({ where: { id }, include: tagInclude });
  if (!row) throw notFound("Tag");
  return toTagResponse(row);
}
