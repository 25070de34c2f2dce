import type { Metadata } from "next";
import { AddOnsTable } from "@/components/pricing/add-ons-table";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Add-ons" };

export default function AddOnsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Add-ons</h1>
        <p className="muted">
          Feature adjustments of a suite, granted to entitlements on top of their plan. A draft nobody holds
          can be deleted; anything else is archived.
        </p>
      </div>
      <AddOnsTable />
    </>
  );
}
