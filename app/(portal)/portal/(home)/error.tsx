"use client";

import { StatusPage } from "@/components/shell/status-page";

/** A portal page that failed to render, inside the portal's shell. */
export default function PortalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <StatusPage
      code="Something went wrong"
      title="This page could not be shown"
      home="/portal"
      homeLabel="Back to your licenses"
      actions={
        <button type="button" className="btn" onClick={reset}>
          Try again
        </button>
      }
    >
      <p>Something went wrong on our side. Try again in a moment; if it keeps happening, contact support.</p>
      {error.digest ? <p className="small">Reference for support: {error.digest}</p> : null}
    </StatusPage>
  );
}
