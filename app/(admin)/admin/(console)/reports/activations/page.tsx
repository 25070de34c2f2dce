import type { Metadata } from "next";
import Link from "next/link";
import "@/components/reports/reports.css";
import { ActivationsReport } from "@/components/reports/activations-report";

export const metadata: Metadata = { title: "Activations" };

export default function ActivationsReportPage() {
  return (
    <>
      <div className="page-head">
        <div className="crumbs">
          <Link href="/admin/reports">Reports</Link>
        </div>
        <h1>Activations</h1>
        <p className="muted">
          Sessions started in each interval. Re-activating a device that still holds its session starts none.
        </p>
      </div>
      <ActivationsReport />
    </>
  );
}
