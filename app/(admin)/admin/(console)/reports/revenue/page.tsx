import type { Metadata } from "next";
import Link from "next/link";
import "@/components/reports/reports.css";
import { RevenueReport } from "@/components/reports/revenue-report";

export const metadata: Metadata = { title: "Revenue" };

export default function RevenueReportPage() {
  return (
    <>
      <div className="page-head">
        <div className="crumbs">
          <Link href="/admin/reports">Reports</Link>
        </div>
        <h1>Revenue</h1>
        <p className="muted">
          Months each plan was held in the period (by calendar month, from the plan-assignment history, within
          each entitlement&apos;s validity), priced by the plan. Trials and Draft entitlements earn nothing.
        </p>
      </div>
      <RevenueReport />
    </>
  );
}
