import { route } from "@/server/http/route";
import { mergeTagContract } from "@/server/http/contracts/catalog/tags";
import { mergeTags } from "@/server/domain/catalog/tags/merge-tags";

// POST /api/v1/provision/admin/tags/{id}/merge
export const POST = route(mergeTagContract, ({ ctx, params, body }) =>
  mergeTags(ctx, params.id, body.intoTagId),
);
