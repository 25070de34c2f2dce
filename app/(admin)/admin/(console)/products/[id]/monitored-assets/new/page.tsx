import type { Metadata } from "next";
import Link from "next/link";
import { AssetEditor } from "@/components/catalog/monitored-assets/asset-editor";
import "@/components/catalog/catalog.css";

export const metadata: Metadata = { title: "New monitored asset" };

export default async function NewMonitoredAssetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <>
      <div className="crumbs">
        <Link href="/admin/products">Products</Link> / <Link href={`/admin/products/${id}`}>product</Link> /
      </div>
      <div className="page-head">
        <h1>New monitored asset</h1>
        <p className="muted">
          A metric the product tracks: metered usage with tiers, a prepaid credit balance, or just tracked.
        </p>
      </div>
      <AssetEditor productId={id} />
    </>
  );
}
