import Link from "next/link";
import { SignOutButton } from "./sign-out-button";

/** The bar above every signed-in page: product, tenant, user and sign-out. */
export function TopBar({ home, product, tenantName, userName, email, signInPage }: {
  home: string;
  product: string;
  tenantName: string;
  userName: string;
  email: string;
  signInPage: string;
}) {
  return (
    <header className="top-bar">
      <Link href={home} className="brand">
        <span className="brand-mark" aria-hidden="true" />
        {product}
      </Link>
      <span className="top-bar-tenant" data-testid="tenant-name" title="Organisation">{tenantName}</span>
      <span className="top-bar-spacer" />
      <span className="top-bar-user" title={email}>
        {userName}
        <span className="muted small"> {email}</span>
      </span>
      <SignOutButton callbackUrl={signInPage} />
    </header>
  );
}
