import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { notFound } from "../../../core/errors.ts";
import { featuresByIds } from "../pricing-lookups.ts";

type TargetInput = { featureCatalogId: string; question: string | null; priority: number | null };

/**
 * Target rows of a campaign. A targeted catalog entry must be live (404 otherwise), except one the
 * campaign already targets (it keeps showing while the entry is deleted).
 */
export async function targetRows(
  db: TenantDbOrTx,
  tenantId: string,
  campaignId: string,
  targets: readonly TargetInput[],
  alreadyTargeted: readonly string[] = [],
): Promise<Prisma.RatingCampaignTargetCreateManyInput[]> {
  const ids = targets.map((t) => t.featureCatalogId.toLowerCase());
  const entries = await featuresByIds(db, ids);
  const missing = ids.find(
    (id) => !alreadyTargeted.includes(id) && (!entries.get(id) || entries.get(id)!.isDeleted),
  );
  if (missing) throw notFound(`Feature catalog entry ${missing}`);
  return targets.map((t, i) => ({
    tenantId,
    campaignId,
    featureCatalogId: ids[i],
    question: t.question?.trim() ? t.question : null,
    priority: t.priority,
    position: i,
  }));
}
