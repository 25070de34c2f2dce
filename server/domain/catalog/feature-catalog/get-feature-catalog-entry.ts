import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { readRecordTags } from "../tags/record-tags.ts";
import { toFeatureCatalogResponse } from "./feature-catalog-response.ts";
import { featureReferencedBy } from "./feature-catalog-references.ts";

/** An entry by id (a deleted one reads `isDeleted: true`), with referencedBy computed. */
export async function getFeatureCatalogEntry(ctx: DomainContext, id: string) {
  const row = await ctx.db.featureCatalogEntry.findUnique({ where: { id } });
  if (!row) throw notFound("Feature catalog entry");
  const [tags, referencedBy] = await Promise.all([
    readRecordTags(ctx.db, [id]),
    featureReferencedBy(ctx.db, row),
  ]);
  return toFeatureCatalogResponse(row, tags.get(id) ?? [], referencedBy);
}
