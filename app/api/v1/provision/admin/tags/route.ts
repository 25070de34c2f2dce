import { route } from "@/server/http/route";
import { createTagContract, listTagsContract } from "@/server/http/contracts/catalog/tags";
import { listTags } from "@/server/domain/catalog/tags/list-tags";
import { createTag } from "@/server/domain/catalog/tags/create-tag";

// GET /api/v1/provision/admin/tags
export const GET = route(listTagsContract, ({ ctx, query }) => listTags(ctx, query));

// POST /api/v1/provision/admin/tags
export const POST = route(createTagContract, ({ ctx, body }) => createTag(ctx, body));
