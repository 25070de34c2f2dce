import type { Metadata } from "next";
import { requireUser } from "@/server/auth/session";
import { Dashboard } from "@/components/dashboard/dashboard";

export const metadata: Metadata = { title: "Dashboard" };

export default async function DashboardPage() {
  const session = await requireUser("staff");
  return (
    <>
      <div className="page-head">
        <h1>Dashboard</h1>
        <p className="muted">
          <strong data-testid="dashboard-tenant">{session.tenantName}</strong> · organisation id{" "}
          <code>{session.tenantSlug}</code> · press <kbd>/</kbd> or <kbd>Ctrl K</kbd> to search
        </p>
      </div>
      <Dashboard />
    </>
  );
}
