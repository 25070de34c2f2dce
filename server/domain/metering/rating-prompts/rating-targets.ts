import type { DomainContext } from "../../context.ts";
import { now } from "../../../clock.ts";
import { noActiveSession } from "../../licensing/sessions/session-access.ts";
import { computeEffectiveFeatures } from "../../entitlements/entitlement/effective-features.ts";
import { featuresByIds } from "../../catalog/pricing-lookups.ts";
import { byAskingOrder, isCampaignRunning } from "../../catalog/rating-campaigns/rating-campaign-response.ts";

export type RatingTarget = {
  campaignId: string;
  campaignName: string;
  campaignCreatedAt: Date;
  featureCatalogId: string;
  featureCode: string;
  featureName: string;
  question: string | null;
  priority: number | null;
  position: number;
  metricName: string | null;
  lastUsedAt: number | null;
  answered: boolean;
};

/**
 * Every target of a running rating campaign that applies to the session's license (docs/api.md
 * "Rating campaign"): the campaign is running, names no offers or the offer the entitlement was
 * made from, and the license is entitled to the feature (an enabled effective feature). Ordered
 * as they are asked: priority ascending (null last), then the feature used most recently first
 * (the last write to its metric's meter or balance; never used last), then campaign age and the
 * target's place in its campaign. `answered` marks targets this license already answered.
 */
export async function applicableRatingTargets(
  ctx: DomainContext,
  input: { sessionId: string; entitlementId: string },
): Promise<RatingTarget[]> {
  const at = now();
  const session = await ctx.db.licenseSession.findFirst({
    where: { id: input.sessionId, entitlementId: input.entitlementId },
    select: { revokedAt: true, graceExpiresAt: true },
  });
  const entitlement = await ctx.db.entitlement.findUnique({ where: { id: input.entitlementId } });
  if (!session || session.revokedAt || session.graceExpiresAt <= at || entitlement?.status !== "Published")
    throw noActiveSession();
  const campaigns = (
    await ctx.db.ratingCampaign.findMany({
      where: {
        isEnabled: true,
        AND: [
          { OR: [{ startsAt: null }, { startsAt: { lte: at } }] },
          { OR: [{ endsAt: null }, { endsAt: { gt: at } }] },
        ],
      },
      include: { targets: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    })
  ).filter(
    (c) =>
      isCampaignRunning(c, at) &&
      (c.offerIds.length === 0 ||
        [entitlement.sourceOfferId, entitlement.originOfferId].some((o) => o && c.offerIds.includes(o))),
  );
  if (!campaigns.length) return [];
  const [features, entries, answers] = await Promise.all([
    computeEffectiveFeatures(ctx.db, entitlement, at),
    featuresByIds(
      ctx.db,
      campaigns.flatMap((c) => c.targets.map((t) => t.featureCatalogId)),
    ),
    ctx.db.featureRating.findMany({
      where: { entitlementId: input.entitlementId },
      select: { campaignId: true, featureCatalogId: true },
    }),
  ]);
  const enabled = new Set(features.filter((f) => f.isEnabled).map((f) => f.featureCode));
  const answered = new Set(answers.map((a) => `${a.campaignId}|${a.featureCatalogId}`));
  const targets: RatingTarget[] = campaigns.flatMap((c) =>
    [...c.targets].sort(byAskingOrder).flatMap((t) => {
      const entry = entries.get(t.featureCatalogId);
      if (!entry || entry.isDeleted || !enabled.has(entry.featureCode)) return [];
      return [
        {
          campaignId: c.id,
          campaignName: c.name,
          campaignCreatedAt: c.createdAt,
          featureCatalogId: t.featureCatalogId,
          featureCode: entry.featureCode,
          featureName: entry.name,
          question: t.question?.trim() ? t.question : null,
          priority: t.priority,
          position: t.position,
          metricName: entry.metricName,
          lastUsedAt: null,
          answered: answered.has(`${c.id}|${t.featureCatalogId}`),
        },
      ];
    }),
  );
  const metrics = [...new Set(targets.map((t) => t.metricName).filter((m): m is string => Boolean(m)))];
  if (metrics.length) {
    const [periods, charges] = await Promise.all([
      ctx.db.meterPeriod.groupBy({
        by: ["metricName"],
        where: { entitlementId: input.entitlementId, metricName: { in: metrics } },
        _max: { updatedAt: true },
      }),
      ctx.db.balanceHistoryEntry.groupBy({
        by: ["metricName"],
        where: {
          entitlementId: input.entitlementId,
          metricName: { in: metrics },
          operation: { in: ["Consume", "UsageCharge"] },
        },
        _max: { createdAt: true },
      }),
    ]);
    const lastUsed = new Map<string, number>();
    for (const p of periods) if (p._max.updatedAt) lastUsed.set(p.metricName, p._max.updatedAt.getTime());
    for (const c of charges)
      if (c._max.createdAt)
        lastUsed.set(c.metricName, Math.max(lastUsed.get(c.metricName) ?? 0, c._max.createdAt.getTime()));
    for (const t of targets) t.lastUsedAt = t.metricName ? (lastUsed.get(t.metricName) ?? null) : null;
  }
  return targets.sort(
    (a, b) =>
      byPriority(a.priority, b.priority) ||
      (b.lastUsedAt ?? -1) - (a.lastUsedAt ?? -1) ||
      a.campaignCreatedAt.getTime() - b.campaignCreatedAt.getTime() ||
      a.position - b.position,
  );
}

function byPriority(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}
