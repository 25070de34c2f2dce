import { route } from "@/server/http/route";
import { deleteTagContract, getTagContract, updateTagContract } from "@/server/http/contracts/catalog/tags";
import { getTag } from "@/server/domain/catalog/tags/get-tag";
import { updateTag } from "@/server/domain/catalog/tags/update-tag";
import { deleteTag } from "@/server/domain/catalog/tags/delete-tag";

// GET /api/v1/provision/admin/tags/{id}
export const GET = route(getTagContract, ({ ctx, params }) => getTag(ctx, params.id));

// PATCH /api/v1/provision/admin/tags/{id}
export const PATCH = route(updateTagContract, ({ ctx, params, body }) => updateTag(ctx, params.id, body));

// DELETE /api/v1/provision/admin/tags/{id}
export const DELETE = route(deleteTagContract, async ({ ctx, params }) => deleteTag(ctx, params.id));
