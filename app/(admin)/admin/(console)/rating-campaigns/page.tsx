import type { Metadata } from "next";
import { RatingCampaignsTable } from "@/components/catalog/rating-campaigns/rating-campaigns-table";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Rating campaigns" };

export default function RatingCampaignsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Rating campaigns</h1>
        <p className="muted">
          Ask entitled users to rate features while a campaign runs: enabled and inside its window. Targets
          are asked by priority.
        </p>
      </div>
      <RatingCampaignsTable />
    </>
  );
}
