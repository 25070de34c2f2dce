import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Reports" };

const reports = [
  {
    href: "/admin/reports/revenue",
    title: "Revenue",
    text: "Revenue by plan and by product from the plan history: priced plans per currency, relative plans as shares, unpriced and unweighted plans apart.",
  },
  {
    href: "/admin/reports/seat-utilization",
    title: "Seat utilisation",
    text: "Seats held at their peak per day, week or month against the seats in force, and the most utilised licenses.",
  },
  {
    href: "/admin/reports/activations",
    title: "Activations",
    text: "Sessions started over time: devices, licenses, offline activations, trials and anonymous tries.",
  },
  {
    href: "/admin/reports/value-delivered",
    title: "Value delivered",
    text: "Per feature, the usage of its metric times its valueScore, over time; features without a valueScore apart.",
  },
];

export default function ReportsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Reports</h1>
        <p className="muted">
          Each report covers a period you choose and downloads as CSV. The same reports answer on the REST API
          under <code>GET /api/v1/provision/admin/reports/…</code> with the scope{" "}
          <code>provision.report.read</code>.
        </p>
      </div>
      <div className="card-grid">
        {reports.map((r) => (
          <Link key={r.href} href={r.href} className="card-link">
            <span className="card-link-title">{r.title}</span>
            <span className="muted">{r.text}</span>
          </Link>
        ))}
      </div>
    </>
  );
}
