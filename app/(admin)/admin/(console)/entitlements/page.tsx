import type { Metadata } from "next";
import { EntitlementsTable } from "@/components/entitlements/entitlements-table";

export const metadata: Metadata = { title: "Entitlements" };

export default function EntitlementsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Entitlements</h1>
        <p className="muted">Customer licenses: their plan, features, add-on grants and billing.</p>
      </div>
      <EntitlementsTable />
    </>
  );
}
