import { createTag } from "../../catalog/tags/create-tag.ts";
import { updateTag } from "../../catalog/tags/update-tag.ts";
import { ZTagCreateRequest, ZTagUpdateRequest } from "../../catalog/tags/tag.schemas.ts";
import { parseDomainInput } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";

/** Tags: matched by scope and name (case-insensitively); an update sets the colour. */
export const tagsImporter: SectionImporter<"tags"> = {
  section: "tags",
  refKinds: [],
  fields: { color: { kind: "value" } },
  comparable: (t) => ({ color: t.color?.toLowerCase() ?? null }),
  async create(_run, ctx, t) {
    const tag = await createTag(
      ctx,
      parseDomainInput(ZTagCreateRequest, { scope: t.scope, name: t.name, color: t.color }),
    );
    return { id: tag.id, notes: [] };
  },
  async update(_run, ctx, t, target) {
    await updateTag(
      ctx,
      target.id,
      parseDomainInput(ZTagUpdateRequest, t.color ? { color: t.color } : { clearColor: true }),
    );
    return { notes: [] };
  },
};
