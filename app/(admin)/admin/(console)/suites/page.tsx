import type { Metadata } from "next";
import { SuitesTable } from "@/components/pricing/suites-table";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Suites" };

export default function SuitesPage() {
  return (
    <>
      <div className="page-head">
        <h1>Suites</h1>
        <p className="muted">
          Products sold together, in sell order. A suite owns the plan sets that price its members and the
          add-ons granted on top of them.
        </p>
      </div>
      <SuitesTable />
    </>
  );
}
