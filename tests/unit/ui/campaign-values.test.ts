import { describe, expect, it } from "vitest";
import { campaignPayload, campaignValues } from "@/components/catalog/rating-campaigns/campaign-values";
import {
  ZRatingCampaignCreateRequest,
  type TRatingCampaignResponse,
} from "@/server/domain/catalog/rating-campaigns/rating-campaign.schemas";

const campaign = {
  id: "7b0f2c8e-1111-4a4a-9a9a-000000000001",
  name: "Feedback",
  description: null,
  isEnabled: true,
  startsAt: null,
  endsAt: null,
  isRunning: true,
  targets: [
    {
      featureCatalogId: "7b0f2c8e-1111-4a4a-9a9a-000000000002",
      featureName: "Seats",
      featureCode: "SEATS",
      question: null,
      priority: 2,
    },
  ],
  offers: [
    { offerId: "7b0f2c8e-1111-4a4a-9a9a-000000000003", name: "Gold", version: "3" },
    { offerId: "7b0f2c8e-1111-4a4a-9a9a-000000000004", name: null, version: null },
  ],
  creationTimeStamp: "2026-11-01T00:00:00Z",
  lastUpdateTimeStamp: "2026-11-01T00:00:00Z",
  revisionNumber: 4,
} as unknown as TRatingCampaignResponse;

describe("rating campaign values", () => {
  it("shows offers by name, one that no longer exists said so", () => {
    expect(campaignValues(campaign).offers).toEqual([
      { offerId: "7b0f2c8e-1111-4a4a-9a9a-000000000003", name: "Gold (version 3)" },
      { offerId: "7b0f2c8e-1111-4a4a-9a9a-000000000004", name: "An offer that no longer exists" },
    ]);
    expect(campaignValues(campaign).targets).toEqual([
      { featureCatalogId: "7b0f2c8e-1111-4a4a-9a9a-000000000002", question: "", priority: "2" },
    ]);
  });

  it("sends offers by id, blanks as null, and the revision only when editing", () => {
    const values = campaignValues(undefined);
    values.name = "New";
    values.targets = [
      { featureCatalogId: "7b0f2c8e-1111-4a4a-9a9a-000000000002", question: " ", priority: "" },
    ];
    values.offers = [{ offerId: "7b0f2c8e-1111-4a4a-9a9a-000000000003", name: "Gold (version 3)" }];
    const payload = campaignPayload(values);
    expect(payload).toEqual({
      name: "New",
      description: null,
      isEnabled: true,
      startsAt: null,
      endsAt: null,
      targets: [{ featureCatalogId: "7b0f2c8e-1111-4a4a-9a9a-000000000002", question: null, priority: null }],
      offers: [{ offerId: "7b0f2c8e-1111-4a4a-9a9a-000000000003" }],
    });
    expect(ZRatingCampaignCreateRequest.safeParse(payload).success).toBe(true);
    expect(campaignPayload(values, 4)).toMatchObject({ revisionNumber: 4 });
  });
});
