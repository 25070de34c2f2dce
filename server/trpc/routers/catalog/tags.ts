import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZTagCreateRequest,
  ZTagIdParams,
  ZTagMergeRequest,
  ZTagResponse,
  ZTagUpdateRequest,
} from "../../../domain/catalog/tags/tag.schemas.ts";
import { listTags } from "../../../domain/catalog/tags/list-tags.ts";
import { getTag } from "../../../domain/catalog/tags/get-tag.ts";
import { createTag } from "../../../domain/catalog/tags/create-tag.ts";
import { updateTag } from "../../../domain/catalog/tags/update-tag.ts";
import { deleteTag } from "../../../domain/catalog/tags/delete-tag.ts";
import { mergeTags } from "../../../domain/catalog/tags/merge-tags.ts";

// The REST list query, with includeDeleted as a real boolean (REST reads it from a query string).
const ZTagListInput = ZListQuery.extend({ includeDeleted: z.boolean().default(false) });

export const tagsRouter = router({
  list: staffProcedure("catalog")
    .input(ZTagListInput)
    .output(ZPage(ZTagResponse))
    .query(({ ctx, input }) => listTags(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZTagIdParams)
    .output(ZTagResponse)
    .query(({ ctx, input }) => getTag(ctx.domain, input.id)),

  create: staffProcedure("catalog")
    .input(ZTagCreateRequest)
    .output(ZTagResponse)
    .mutation(({ ctx, input }) => createTag(ctx.domain, input)),

  update: staffProcedure("catalog")
    .input(ZTagIdParams.extend({ patch: ZTagUpdateRequest }))
    .output(ZTagResponse)
    .mutation(({ ctx, input }) => updateTag(ctx.domain, input.id, input.patch)),

  delete: staffProcedure("catalog")
    .input(ZTagIdParams)
    .mutation(({ ctx, input }) => deleteTag(ctx.domain, input.id)),

  merge: staffProcedure("catalog")
    .input(ZTagIdParams.extend(ZTagMergeRequest.shape))
    .output(ZTagResponse)
    .mutation(({ ctx, input }) => mergeTags(ctx.domain, input.id, input.intoTagId)),
});
