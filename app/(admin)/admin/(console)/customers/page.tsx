import type { Metadata } from "next";
import { CustomersPanels } from "@/components/customers/customers-panels";

export const metadata: Metadata = { title: "Customers" };

export default function CustomersPage() {
  return (
    <>
      <div className="page-head">
        <h1>Customers</h1>
        <p className="muted">
          Users and organizations entitlements are assigned to. Changes send User.* and Organization.* events.
        </p>
      </div>
      <CustomersPanels />
    </>
  );
}
