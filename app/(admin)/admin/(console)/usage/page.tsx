import type { Metadata } from "next";
import { FleetUsage } from "@/components/metering/fleet-usage";
import "@/components/reports/reports.css";
import "@/components/dashboard/dashboard.css";

export const metadata: Metadata = { title: "Usage" };

export default function UsagePage() {
  return (
    <>
      <div className="page-head">
        <h1>Usage</h1>
        <p className="muted">
          One metric across all your customers: usage over time, who uses the most, and the licenses near or
          over their allowance. Open one to see its meters and balances.
        </p>
      </div>
      <FleetUsage />
    </>
  );
}
