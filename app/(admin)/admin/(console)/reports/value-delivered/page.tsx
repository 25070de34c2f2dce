import type { Metadata } from "next";
import Link from "next/link";
import "@/components/reports/reports.css";
import { ValueDeliveredReport } from "@/components/reports/value-delivered-report";

export const metadata: Metadata = { title: "Value delivered" };

export default function ValueDeliveredReportPage() {
  return (
    <>
      <div className="page-head">
        <div className="crumbs">
          <Link href="/admin/reports">Reports</Link>
        </div>
        <h1>Value delivered</h1>
        <p className="muted">
          Per feature, the usage of its metric (consumptions and uploaded usage) times its valueScore.
        </p>
      </div>
      <ValueDeliveredReport />
    </>
  );
}
