import { createRatingCampaign } from "../../catalog/rating-campaigns/create-rating-campaign.ts";
import { updateRatingCampaign } from "../../catalog/rating-campaigns/update-rating-campaign.ts";
import {
  ZRatingCampaignCreateRequest,
  ZRatingCampaignUpdateRequest,
} from "../../catalog/rating-campaigns/rating-campaign.schemas.ts";
import { mergeField } from "./comparison.ts";
import { ItemRefusal, parseDomainInput, type ImportRun } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import type { TPortableRatingCampaign } from "../snapshot/snapshot-items.schemas.ts";

type Target = TPortableRatingCampaign["targets"][number];
const byFeature = { kind: "list" as const, key: (t: unknown) => (t as Target).featureCatalogId };

async function resolveTargets(
  run: ImportRun,
  c: TPortableRatingCampaign,
  notes: string[],
): Promise<Target[]> {
  const targets: Target[] = [];
  for (const t of c.targets) {
    const featureCatalogId = await run.resolve("FeatureCatalogEntry", t.featureCatalogId);
    if (featureCatalogId) targets.push({ ...t, featureCatalogId });
    else
      notes.push(
        `Target ${run.sourceKeyOf(t.featureCatalogId)} left out: its catalog entry is not in the target.`,
      );
  }
  return targets;
}

/** The campaign's offers in the target; one that is missing refuses the item (an empty list would ask everyone). */
async function resolveOffers(run: ImportRun, c: TPortableRatingCampaign): Promise<string[]> {
  const ids: string[] = [];
  for (const sourceId of c.offerIds) {
    const id = await run.resolve("Offer", sourceId);
    if (!id)
      throw new ItemRefusal(
        `Its offer ${run.sourceKeyOf(sourceId)} is not in the target; without it the campaign would ask other customers.`,
      );
    ids.push(id);
  }
  return ids;
}

/**
 * Rating campaigns: matched by name; created and updated through the campaign functions.
 * Targets are merged (the file's, then the target's others); offers are added, except that a
 * campaign asking every customer (no offers) keeps doing so.
 */
export const ratingCampaignsImporter: SectionImporter<"ratingCampaigns"> = {
  section: "ratingCampaigns",
  refKinds: ["FeatureCatalogEntry", "Offer"],
  fields: {
    description: { kind: "value" },
    isEnabled: { kind: "value" },
    startsAt: { kind: "value" },
    endsAt: { kind: "value" },
    targets: { kind: "list", key: (t) => String((t as { feature: string }).feature) },
    offers: { kind: "set" },
  },
  comparable: (c, keyOf) => ({
    description: c.description,
    isEnabled: c.isEnabled,
    startsAt: c.startsAt ? new Date(c.startsAt).toISOString() : null,
    endsAt: c.endsAt ? new Date(c.endsAt).toISOString() : null,
    targets: c.targets.map((t) => ({
      feature: keyOf(t.featureCatalogId),
      question: t.question,
      priority: t.priority,
    })),
    offers: c.offerIds.map((id) => keyOf(id)),
  }),

  async create(run, ctx, c) {
    const notes: string[] = [];
    const campaign = await createRatingCampaign(
      ctx,
      parseDomainInput(ZRatingCampaignCreateRequest, {
        name: c.name,
        description: c.description,
        isEnabled: c.isEnabled,
        startsAt: c.startsAt,
        endsAt: c.endsAt,
        targets: await resolveTargets(run, c, notes),
        offers: (await resolveOffers(run, c)).map((offerId) => ({ offerId })),
      }),
    );
    return { id: campaign.id, notes };
  },

  async update(run, ctx, c, { id, current }) {
    const notes: string[] = [];
    const targets = mergeField(byFeature, current.targets, await resolveTargets(run, c, notes)) as Target[];
    const incomingOffers = await resolveOffers(run, c);
    let offers: string[] | null = null;
    if (current.offerIds.length === 0 && incomingOffers.length > 0)
      notes.push("Offers kept: the target's campaign asks every customer.");
    else offers = mergeField({ kind: "set" }, current.offerIds, incomingOffers) as string[];
    await updateRatingCampaign(
      ctx,
      id,
      parseDomainInput(ZRatingCampaignUpdateRequest, {
        name: current.name,
        description: c.description,
        isEnabled: c.isEnabled,
        startsAt: c.startsAt,
        endsAt: c.endsAt,
        targets,
        offers: offers?.map((offerId) => ({ offerId })) ?? null,
      }),
    );
    return { notes };
  },
};
