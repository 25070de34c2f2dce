import { z } from "zod";
import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZTagCreateRequest, ZTagIdParams, ZTagMergeRequest, ZTagResponse, ZTagUpdateRequest,
} from "../../domain/catalog/tag.schemas.ts";
import { listTags } from "../../domain/catalog/list-tags.ts";
import { getTag } from "../../domain/catalog/get-tag.ts";
import { createTag } from "../../domain/catalog/create-tag.ts";
import { updateTag } from "../../domain/catalog/update-tag.ts";
import { deleteTag } from "../../domain/catalog/delete-tag.ts";
import { mergeTags } from "../../domain/catalog/merge-tags.ts";

// The REST list query, with includeDeleted as a real boolean (REST reads it from a query string).
const ZTagListInput = ZListQuery.extend({ includeDeleted: z.boolean().default(false) });

export const tagsRouter = router({
  list: staffProcedure.input(ZTagListInput).output(ZPage(ZTagResponse)).query(({ ctx, input }) => listTags(ctx.domain, input)),

  get: staffProcedure.input(ZTagIdParams).output(ZTagResponse).query(({ ctx, input }) => getTag(ctx.domain, input.id)),

  create: staffProcedure.input(ZTagCreateRequest).output(ZTagResponse).mutation(({ ctx, input }) => createTag(ctx.domain, input)),

  update: staffProcedure
    .input(ZTagIdParams.extend({ patch: ZTagUpdateRequest }))
    .output(ZTagResponse)
    .mutation(({ ctx, input }) => updateTag(ctx.domain, input.id, input.patch)),

  delete: staffProcedure.input(ZTagIdParams).mutation(({ ctx, input }) => deleteTag(ctx.domain, input.id)),

  merge: staffProcedure
    .input(ZTagIdParams.extend(ZTagMergeRequest.shape))
    .output(ZTagResponse)
    .mutation(({ ctx, input }) => mergeTags(ctx.domain, input.id, input.intoTagId)),
});
