import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/session";

export const metadata: Metadata = { title: "Back office" };

const quickLinks = [
  { href: "/admin/tags", title: "Tags", text: "Organise the catalog with labels: create, rename, merge." },
  { href: "/admin/settings/clients", title: "API clients", text: "Register the OAuth clients your backends use, with their scopes." },
  { href: "/admin/api-docs", title: "API docs", text: "Every REST endpoint, its scope, schemas and problem codes." },
];

export default async function DashboardPage() {
  const session = await requireUser("staff");
  return (
    <>
      <div className="page-head">
        <h1>Welcome, {session.name}</h1>
      </div>
      <section className="panel welcome">
        <p className="lead">
          You are managing <strong data-testid="dashboard-tenant">{session.tenantName}</strong>.
        </p>
        <p className="muted">
          Organisation id <code>{session.tenantSlug}</code> · tenant id <code>{session.tenantId}</code>
        </p>
      </section>
      <div className="card-grid">
        {quickLinks.map((link) => (
          <Link key={link.href} href={link.href} className="card-link">
            <span className="card-link-title">{link.title}</span>
            <span className="muted">{link.text}</span>
          </Link>
        ))}
      </div>
    </>
  );
}
