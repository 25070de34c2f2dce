import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/shell/sign-in-form";
import { currentSession } from "@/server/auth/session";
import "@/components/shell/auth-pages.css";

export const metadata: Metadata = { title: "Back office sign-in" };

export default async function AdminSignInPage({
  searchParams,
}: {
  searchParams: Promise<{ refused?: string }>;
}) {
  const session = await currentSession();
  if (session?.kind === "staff") redirect("/admin");
  const { refused } = await searchParams;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Licensing back office
        </div>
        <h1>Sign in</h1>
        <p className="muted">
          For the vendor&apos;s staff. Customers use the <Link href="/portal/sign-in">portal</Link>.
        </p>
        {refused === "consumer" || session?.kind === "consumer" ? (
          <div className="alert alert-warn" role="status" data-testid="refused">
            You are signed in to the customer portal. The back office is for vendor staff: sign in with a
            staff account.
          </div>
        ) : null}
        <SignInForm provider="staff" home="/admin" />
      </div>
    </main>
  );
}
