import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/shell/sign-in-form";
import { currentSession } from "@/server/auth/session";
import "@/components/shell/auth-pages.css";

export const metadata: Metadata = { title: "Portal sign-in" };

export default async function PortalSignInPage({
  searchParams,
}: {
  searchParams: Promise<{ refused?: string }>;
}) {
  const session = await currentSession();
  if (session?.kind === "consumer") redirect("/portal");
  const { refused } = await searchParams;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Customer portal
        </div>
        <h1>Sign in</h1>
        <p className="muted">See your licenses, sessions and activation codes.</p>
        {refused === "staff" || session?.kind === "staff" ? (
          <div className="alert alert-warn" role="status" data-testid="refused">
            You are signed in to the back office. The portal is for customers&apos; users: sign in with a
            customer account.
          </div>
        ) : null}
        <SignInForm provider="consumer" home="/portal" />
      </div>
    </main>
  );
}
