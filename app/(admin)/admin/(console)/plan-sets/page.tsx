import type { Metadata } from "next";
import { Suspense } from "react";
import { PlanSetsTable } from "@/components/pricing/plan-sets-table";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Plan sets" };

export default function PlanSetsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Plan sets</h1>
        <p className="muted">
          Usage plans of each suite, as revisions: a draft is edited freely, publishing it replaces the
          suite&apos;s published revision, and a published revision is never edited in place.
        </p>
      </div>
      <Suspense>
        <PlanSetsTable />
      </Suspense>
    </>
  );
}
