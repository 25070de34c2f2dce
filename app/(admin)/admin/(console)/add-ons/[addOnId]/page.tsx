import type { Metadata } from "next";
import { AddOnDetail } from "@/components/pricing/add-on-detail";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Add-on" };

export default async function AddOnPage({ params }: { params: Promise<{ addOnId: string }> }) {
  const { addOnId } = await params;
  return <AddOnDetail addOnId={addOnId} />;
}
