import type { TRatingCampaignResponse } from "@/server/domain/catalog/rating-campaigns/rating-campaign.schemas";

/** A target as its row edits it: the priority as typed. */
export type TargetRow = { featureCatalogId: string; question: string; priority: string };
/** An offer the campaign asks, with the name it shows under. */
export type CampaignOffer = { offerId: string; name: string };

/** What the campaign dialog's inputs hold; named as the request names them. */
export type CampaignValues = {
  name: string;
  description: string;
  isEnabled: boolean;
  /** As `datetime-local` holds it, in the browser's time. */
  startsAt: string;
  endsAt: string;
  targets: TargetRow[];
  offers: CampaignOffer[];
};

/** `datetime-local` shows local time; the API speaks UTC ISO 8601. */
export const toLocalInput = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (value: string) => {
  if (!value) return null;
  const time = new Date(value);
  // An impossible date stays as typed, so the API's schema names it.
  return Number.isNaN(time.getTime()) ? value : time.toISOString();
};

export function campaignValues(campaign: TRatingCampaignResponse | undefined): CampaignValues {
  return {
    name: campaign?.name ?? "",
    description: campaign?.description ?? "",
    isEnabled: campaign?.isEnabled ?? true,
    startsAt: toLocalInput(campaign?.startsAt ?? null),
    endsAt: toLocalInput(campaign?.endsAt ?? null),
    targets: (campaign?.targets ?? []).map((t) => ({
      featureCatalogId: t.featureCatalogId,
      question: t.question ?? "",
      priority: t.priority === null ? "" : String(t.priority),
    })),
    offers: (campaign?.offers ?? []).map((o) => ({
      offerId: o.offerId,
      name: o.name
        ? `${o.name}${o.version ? ` (version ${o.version})` : ""}`
        : "An offer that no longer exists",
    })),
  };
}

/** The create or update request of the dialog's values (blank question and priority are null). */
export function campaignPayload(v: CampaignValues, revisionNumber?: number) {
  return {
    name: v.name,
    description: v.description.trim() ? v.description : null,
    isEnabled: v.isEnabled,
    startsAt: fromLocalInput(v.startsAt),
    endsAt: fromLocalInput(v.endsAt),
    targets: v.targets.map((t) => ({
      featureCatalogId: t.featureCatalogId,
      question: t.question.trim() || null,
      priority: t.priority.trim() === "" ? null : Number(t.priority),
    })),
    offers: v.offers.map((o) => ({ offerId: o.offerId })),
    ...(revisionNumber === undefined ? {} : { revisionNumber }),
  };
}
