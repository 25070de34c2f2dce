import type { Metadata } from "next";
import { AssetDetail } from "@/components/catalog/monitored-assets/asset-detail";
import "@/components/catalog/catalog.css";

export const metadata: Metadata = { title: "Monitored asset" };

export default async function MonitoredAssetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AssetDetail id={id} />;
}
