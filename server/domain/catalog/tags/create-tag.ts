import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TTagCreateRequest } from "./tag.schemas.ts";
import { tagInclude, toTagResponse } from "./tag-response.ts";

export const tagNameKey = (name: string) => name.trim().toLowerCase();

export const tagNameTaken = (scope: string, name: string) =>
  new AppError(
    "tag.name_taken",
    `A ${scope} tag named "${name}" already exists (names are unique regardless of case).`,
  );

export async function createTag(ctx: DomainContext, input: TTagCreateRequest) {
  try {
    const row = await ctx.db.tag.create({
      data: {
        tenantId: ctx.tenantId,
        scope: input.scope,
        name: input.name,
        activeNameKey: tagNameKey(input.name),
        color: input.color ?? null,
      },
      include: tagInclude,
    });
    return toTagResponse(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw tagNameTaken(input.scope, input.name);
    throw error;
  }
}
