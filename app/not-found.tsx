import Link from "next/link";

/** An address outside the back office and the portal. */
export default function NotFound() {
  return (
    <main className="status-page status-page-bare" id="main">
      <p className="status-page-code">Page not found</p>
      <h1>We could not find that page</h1>
      <p className="muted">The address may be mistyped, or the page has moved.</p>
      <div className="status-page-actions">
        <Link href="/admin" className="btn">
          Back office
        </Link>
        <Link href="/portal" className="btn btn-primary">
          Customer portal
        </Link>
      </div>
    </main>
  );
}
