import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "./sign-out-button";

/** The bar above every signed-in page: product, tenant, user and sign-out. */
export function TopBar({
  home,
  product,
  tenantName,
  userName,
  email,
  signInPage,
  search,
}: {
  home: string;
  product: string;
  tenantName: string;
  userName: string;
  email: string;
  signInPage: string;
  /** The back office's global search box (the portal has none). */
  search?: ReactNode;
}) {
  return (
    <header className="top-bar">
      {/* The first stop of the keyboard: straight to the page's content (the layouts' <main id="main">). */}
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Link href={home} className="brand">
        {/* eslint-disable-next-line @next/next/no-img-element -- a 1 kB static SVG from public/ */}
        <img src="/icon.svg" alt="" width={20} height={20} className="brand-icon" />
        {product}
      </Link>
      <span className="top-bar-tenant truncate" data-testid="tenant-name" title={tenantName}>
        {tenantName}
      </span>
      <span className="top-bar-spacer" />
      {search}
      <span className="top-bar-user" title={email}>
        {userName}
        <span className="muted small"> {email}</span>
      </span>
      <SignOutButton callbackUrl={signInPage} />
    </header>
  );
}
