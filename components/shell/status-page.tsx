import Link from "next/link";
import type { ReactNode } from "react";

/** The body of a not-found or error page inside the app shell: what happened and the ways back. */
export function StatusPage({
  code,
  title,
  children,
  home,
  homeLabel,
  actions,
}: {
  code: string;
  title: string;
  children: ReactNode;
  home: string;
  homeLabel: string;
  actions?: ReactNode;
}) {
  return (
    <section className="status-page" aria-labelledby="status-title">
      <p className="status-page-code">{code}</p>
      <h1 id="status-title">{title}</h1>
      <div className="muted">{children}</div>
      <div className="status-page-actions">
        {actions}
        <Link href={home} className="btn btn-primary">
          {homeLabel}
        </Link>
      </div>
    </section>
  );
}
