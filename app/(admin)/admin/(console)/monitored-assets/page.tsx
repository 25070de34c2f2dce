import type { Metadata } from "next";
import { AssetsTable } from "@/components/catalog/monitored-assets/assets-table";
import "@/components/catalog/catalog.css";

export const metadata: Metadata = { title: "Monitored assets" };

export default function MonitoredAssetsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Monitored assets</h1>
        <p className="muted">
          Usage-tracked metrics: metered usage with tiers, or prepaid credit balances. Products own them;
          entitlements and offers hold copies.
        </p>
      </div>
      <AssetsTable />
    </>
  );
}
