import type { Metadata } from "next";
import { PlanChangeRequestsTable } from "@/components/entitlements/plan-change-requests-table";

export const metadata: Metadata = { title: "Plan changes" };

export default function PlanChangeRequestsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Plan changes</h1>
        <p className="muted">
          Requests end users made from the portal to move their license to another plan.
        </p>
      </div>
      <PlanChangeRequestsTable />
    </>
  );
}
