import type { Metadata } from "next";
import { OffersTable } from "@/components/entitlements/offers-table";

export const metadata: Metadata = { title: "Offers" };

export default function OffersPage() {
  return (
    <>
      <div className="page-head">
        <h1>Offers</h1>
        <p className="muted">
          Templates entitlements are made from: products, plan, licensing model and billing. Entitlements made
          from a Published offer are snapshots.
        </p>
      </div>
      <OffersTable />
    </>
  );
}
