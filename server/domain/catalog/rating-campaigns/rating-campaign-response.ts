import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { now } from "../../../clock.ts";
import { featuresByIds } from "../pricing-lookups.ts";
import { offersByIds } from "./offer-lookup.ts";
import type { TRatingCampaignResponse } from "./rating-campaign.schemas.ts";

export const ratingCampaignInclude = { targets: true } satisfies Prisma.RatingCampaignInclude;
type CampaignRow = Prisma.RatingCampaignGetPayload<{ include: typeof ratingCampaignInclude }>;

/** docs/api.md: running = enabled and the current time inside [startsAt, endsAt); a null bound is open. */
export function isCampaignRunning(
  row: { isEnabled: boolean; startsAt: Date | null; endsAt: Date | null },
  at: Date = now(),
): boolean {
  return row.isEnabled && (!row.startsAt || row.startsAt <= at) && (!row.endsAt || at < row.endsAt);
}

/** Targets in asking order: lower priority first, null priorities last, then as listed. */
export function byAskingOrder<T extends { priority: number | null; position: number }>(a: T, b: T): number {
  if (a.priority !== b.priority) {
    if (a.priority === null) return 1;
    if (b.priority === null) return -1;
    return a.priority - b.priority;
  }
  return a.position - b.position;
}

export async function toRatingCampaignResponses(
  db: TenantDbOrTx,
  rows: readonly CampaignRow[],
): Promise<TRatingCampaignResponse[]> {
  const [features, offers] = await Promise.all([
    featuresByIds(
      db,
      rows.flatMap((r) => r.targets.map((t) => t.featureCatalogId)),
    ),
    offersByIds(
      db,
      rows.flatMap((r) => r.offerIds),
    ),
  ]);
  const at = now();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    isEnabled: row.isEnabled,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    isRunning: isCampaignRunning(row, at),
    targets: [...row.targets].sort(byAskingOrder).map((t) => {
      const entry = features.get(t.featureCatalogId);
      return {
        featureCatalogId: t.featureCatalogId,
        featureCode: entry?.featureCode ?? null,
        featureName: entry?.name ?? null,
        question: t.question,
        priority: t.priority,
      };
    }),
    offers: row.offerIds.map((offerId) => {
      const offer = offers.get(offerId);
      return { offerId, name: offer?.name ?? null, version: offer?.version ?? null };
    }),
    creationTimeStamp: row.createdAt.toISOString(),
    lastUpdateTimeStamp: row.updatedAt.toISOString(),
    revisionNumber: row.revisionNumber,
  }));
}

export async function readRatingCampaign(
  db: TenantDbOrTx,
  id: string,
): Promise<TRatingCampaignResponse | null> {
  const row = await db.ratingCampaign.findUnique({ where: { id }, include: ratingCampaignInclude });
  return row ? (await toRatingCampaignResponses(db, [row]))[0] : null;
}
