import type { Metadata } from "next";
import { OfferDetail } from "@/components/entitlements/offer-detail";
import "@/components/pricing/pricing.css";
import "@/components/entitlements/workspace.css";

export const metadata: Metadata = { title: "Offer" };

export default async function OfferPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <OfferDetail id={id} />;
}
