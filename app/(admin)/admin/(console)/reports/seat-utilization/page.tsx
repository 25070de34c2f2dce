import type { Metadata } from "next";
import Link from "next/link";
import "@/components/reports/reports.css";
import { SeatUtilizationReport } from "@/components/reports/seat-utilization-report";

export const metadata: Metadata = { title: "Seat utilisation" };

export default function SeatUtilizationReportPage() {
  return (
    <>
      <div className="page-head">
        <div className="crumbs">
          <Link href="/admin/reports">Reports</Link>
        </div>
        <h1>Seat utilisation</h1>
        <p className="muted">
          A session holds a seat from activation until it is released, reset or its lease runs out. Each
          interval shows the most seats held at once against the seats of the licenses in force.
        </p>
      </div>
      <SeatUtilizationReport />
    </>
  );
}
